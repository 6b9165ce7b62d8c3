package dev.effectful.runtime.engine;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.log.LogSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A held intent's WARN line: said once per intent in a process, when its attempt ends unknown with
 * nothing to settle it, and once more by a restarted process at the first repeat; never for an
 * unknown that settles by itself (a probe, a repeat-safe kind).
 */
class HeldIntentsTest {

    @TempDir
    Path secret;

    @RegisterExtension
    final LogCapture warnings = LogCapture.of(LogSink.Level.WARN, LogSink.Level.WARN);

    /** Tools whose answer is always lost. */
    public static class Tools {
        @EffectfulTool(kind = EffectKind.SEND)
        public String send(@IntentKey String id) throws Exception {
            throw new SocketTimeoutException("read timed out");
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT)
        public String put(@IntentKey String id) throws Exception {
            throw new SocketTimeoutException("read timed out");
        }
    }

    private List<String> held() {
        return warnings.messages().stream().filter(w -> w.startsWith("effectful held ")).toList();
    }

    @Test
    void aHeldIntentIsSaidOnceHoweverOftenTheModelRepeatsIt() {
        InMemoryEngine engine = new InMemoryEngine(secret);
        Tools tools = new Tools();
        for (int i = 0; i < 3; i++) {
            engine.call("t-held", tools, "send", "order-9");
        }
        String key = engine.lastIntentKey();
        assertThat(engine.journal.all()).filteredOn(r -> r.type() == RecordType.REFUSED).hasSize(2);
        assertThat(held()).singleElement().asString()
                .startsWith("effectful held call=send task=t-held intent_key=" + key + ": its outcome is unknown")
                .contains(" resolve " + key + " --applied yes").contains(" console");

        engine.call("t-held", tools, "send", "order-10");
        assertThat(held()).as("another intent, its own line").hasSize(2);

        InMemoryEngine restarted = engine.restartedWithout(r -> false);
        restarted.call("t-held", tools, "send", "order-9");
        restarted.call("t-held", tools, "send", "order-9");
        assertThat(held()).as("a new process says it once more, at the first repeat").hasSize(3);
        assertThat(held().get(2)).contains("intent_key=" + key + ": an earlier attempt's outcome is unknown");
    }

    @Test
    void anUnknownThatSettlesByItselfIsNotHeld() {
        InMemoryEngine engine = new InMemoryEngine(secret);
        engine.call("t-put", new Tools(), "put", "row-1");
        engine.call("t-put", new Tools(), "put", "row-1");
        assertThat(held()).isEmpty();
    }
}
