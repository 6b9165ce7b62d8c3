package dev.effectful.runtime.engine;

import dev.effectful.Approval;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.events.CallEvent;
import dev.effectful.runtime.events.CallTrace;
import dev.effectful.runtime.events.EventSink;
import dev.effectful.runtime.events.Events;
import dev.effectful.runtime.events.Reentry;
import dev.effectful.runtime.events.Step;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.values.ResultCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's side of approvals, in one JVM over a memory journal: one request per intent, the events say
 * the call waits for an approval (re-entry path {@code approval}, which every sink reports), an approval
 * appended by another writer lets the next call run the body once, and a tool needing approval outside a
 * task is refused.
 */
class ApprovalEngineTest {

    @TempDir
    Path secretDir;

    public static final class Tools {
        final AtomicInteger bodies = new AtomicInteger();

        @EffectfulTool(kind = EffectKind.MONEY, name = "pay", approval = Approval.REQUIRED)
        public String pay(@IntentKey String order, String memo) {
            bodies.incrementAndGet();
            return "paid:" + order;
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "notify_all", approval = Approval.REQUIRED)
        public void notifyAll(@dev.effectful.Items List<String> ids) {
            bodies.incrementAndGet();
        }
    }

    /** Every refusal's re-entry path, as the sinks (log line, JFR, OpenTelemetry, Micrometer) get it. */
    static final class Paths implements EventSink {
        final List<Reentry> refused = new CopyOnWriteArrayList<>();

        @Override
        public boolean interested(Class<?> toolClass) {
            return true;
        }

        @Override
        public void begin(CallTrace trace, int slot) {
        }

        @Override
        public void on(CallEvent e, int slot) {
            if (e.step() == Step.REFUSED) {
                refused.add(e.reentry());
            }
        }

        @Override
        public void abandon(CallTrace trace, int slot) {
        }
    }

    @Test
    void oneRequestTheWaitIsReportedAsApprovalAndAnApprovalRunsTheBodyOnce() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        ClockedStore store = new ClockedStore();
        Paths paths = new Paths();
        CallEngine engine = new CallEngine(EffectfulConfig.load("journal=" + secretDir), JournalAccess.of(journal), store,
                new ArgsRenderer(Fingerprinter.forJournal(secretDir), 65_536), new ResultCodec(JsonMappers.shared(), 1 << 20),
                Classifier.defaults(), new Events(List.of(paths)));
        EngineHarness harness = new EngineHarness(engine);
        Tools tools = new Tools();
        try (Task t = Task.open("t-1", Duration.ofSeconds(30))) {
            Completion first = harness.call(tools, "pay", "o-1", "pay it");
            Completion second = harness.call(tools, "pay", "o-1", "pay it, rephrased");
            for (Completion c : List.of(first, second)) {
                assertThat(c.thrown()).isInstanceOf(ToolOutcomeException.class);
                assertThat(c.thrown().getMessage()).contains("\"outcome\":\"retryable\"", "\"effect_applied\":\"no\"",
                        "a person must approve this first");
            }
            assertThat(paths.refused).containsExactly(Reentry.APPROVAL, Reentry.APPROVAL);
            List<JournalRecord> requests = journal.all().stream().filter(r -> r.type() == RecordType.APPROVAL_REQUESTED)
                    .toList();
            assertThat(requests).hasSize(1);
            assertThat(requests.get(0).args()).contains("pay it");

            JournalRecord approval = JournalRecord.of(RecordType.APPROVAL).task("t-1").call("pay").kind(Kind.MONEY)
                    .intentKey(requests.get(0).intentKey()).started(System.currentTimeMillis()).verdict("approved")
                    .by("bob").note("ok").build();
            store.apply(journal.append(approval), approval);
            assertThat(harness.call(tools, "pay", "o-1", "third wording").value()).isEqualTo("paid:o-1");
            assertThat(harness.call(tools, "pay", "o-1", "fourth wording").value()).isEqualTo("paid:o-1");
            assertThat(tools.bodies.get()).isEqualTo(1);
        }
        try (Task t = Task.open("t-2", Duration.ofSeconds(30))) {
            Completion batch = harness.call(tools, "notifyAll", List.of("a", "b"));
            assertThat(batch.thrown().getMessage()).contains("\"outcome\":\"permanent\"", "batch tool",
                    "per intent");
        }
        Completion outside = harness.call(tools, "pay", "o-2", "no task");
        assertThat(outside.thrown().getMessage()).contains("\"outcome\":\"permanent\"", "outside any task");
        assertThat(tools.bodies.get()).isEqualTo(1);
    }
}
