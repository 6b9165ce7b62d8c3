package dev.effectful.runtime.engine;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.runtime.tool.ToolMethods;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A call's checked steps: keyed before it starts, started once, journaled once and only after it started. */
class CallStagesTest {

    static class Tools {
        @EffectfulTool(kind = EffectKind.SEND, name = "send_email")
        String send(@IntentKey String to) {
            return "sent";
        }
    }

    private static Call call() {
        ToolMethod tool = new ToolMethods().resolve(Tools.class, "send(Ljava/lang/String;)Ljava/lang/String;");
        assertThat(tool).isNotNull();
        return new Call(tool, new Tools(), new Object[] {"bob"});
    }

    @Test
    void theStepsInTheirOrderPass() {
        Call c = call();
        assertThat(c.stage()).isEqualTo(Call.Stage.NEW);
        c.inTask(null);
        c.keyed("k1");
        c.keyed("k0"); // an earlier key of the same intent replaces it before anything started
        assertThat(c.stage()).isEqualTo(Call.Stage.KEYED);
        c.started(1, "t-k0-a1");
        assertThat(c.stage()).isEqualTo(Call.Stage.STARTED);
        c.markJournaled();
        assertThat(c.stage()).isEqualTo(Call.Stage.JOURNALED);
        assertThat(c.isJournaled()).isTrue();
        assertThat(c.intentKey()).isEqualTo("k0");
        assertThat(c.attemptId()).isEqualTo("t-k0-a1");
    }

    @Test
    void anAttemptDoesNotStartWithoutAKey() {
        Call c = call();
        assertThatThrownBy(() -> c.started(1, "a1")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("send_email").hasMessageContaining("start an attempt").hasMessageContaining("NEW");
        assertThat(c.stage()).isEqualTo(Call.Stage.NEW);
        assertThat(c.attemptId()).isNull();
    }

    @Test
    void theKeyCannotChangeOnceAnAttemptStarted() {
        Call c = call();
        c.keyed("k1");
        c.started(1, "a1");
        assertThatThrownBy(() -> c.keyed("k2")).isInstanceOf(IllegalStateException.class).hasMessageContaining("take a key");
        assertThat(c.intentKey()).isEqualTo("k1");
        assertThatThrownBy(() -> c.inTask(null)).isInstanceOf(IllegalStateException.class).hasMessageContaining("enter a task");
    }

    @Test
    void anIntentIsJournaledOnceAndOnlyAfterItsAttemptStarted() {
        Call c = call();
        c.keyed("k1");
        assertThatThrownBy(c::markJournaled).isInstanceOf(IllegalStateException.class).hasMessageContaining("journal its intent");
        assertThat(c.isJournaled()).isFalse();
        c.started(1, "a1");
        assertThatThrownBy(() -> c.started(2, "a2")).as("an attempt starts once").isInstanceOf(IllegalStateException.class);
        c.markJournaled();
        assertThatThrownBy(c::markJournaled).isInstanceOf(IllegalStateException.class).hasMessageContaining("JOURNALED");
    }
}
