package dev.effectful.runtime.engine;

import dev.effectful.Approval;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;
import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.runtime.approval.ApprovalAsker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's side of approval by elicitation, over a real journal: the call that makes an intent's approval
 * request asks the thread's {@link ApprovalAsker} once; its answer is the verdict (approved runs the body once,
 * denied refuses for good with the words), recorded with {@code via}; no answer, or an asker that throws, leaves
 * the request waiting as before, and no retry asks again.
 */
class ElicitationEngineTest {

    static final String CARD = "tok_4111111111111111";

    @TempDir
    Path journal;

    public static final class Tools {
        final AtomicInteger bodies = new AtomicInteger();

        @EffectfulTool(kind = EffectKind.MONEY, name = "pay", approval = Approval.REQUIRED)
        public String pay(@IntentKey String order, String memo, @Redact String card) {
            bodies.incrementAndGet();
            return "paid:" + order;
        }
    }

    /** An asker answering as scripted, keeping every question it was asked. */
    static final class Scripted implements ApprovalAsker {
        final List<Question> asked = new CopyOnWriteArrayList<>();
        private final Function<Question, Answer> script;

        Scripted(Function<Question, Answer> script) {
            this.script = script;
        }

        @Override
        public Answer ask(Question question, Duration wait) {
            asked.add(question);
            return script.apply(question);
        }

        @Override
        public String via() {
            return "elicitation";
        }
    }

    @Test
    void acceptedTheSameCallRunsTheBodyOnceAndTheRephrasedRetryIsNotAsked() throws Exception {
        Tools tools = new Tools();
        Scripted asker = new Scripted(q -> new ApprovalAsker.Answer.Approved("fine"));
        try (CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + journal));
             ApprovalAsker.Binding b = ApprovalAsker.bind(asker);
             Task t = Task.open("t-1", "alice", Duration.ofSeconds(30))) {
            EngineHarness harness = new EngineHarness(engine);
            assertThat(harness.call(tools, "pay", "o-1", "refund it", CARD).value()).isEqualTo("paid:o-1");
            assertThat(harness.call(tools, "pay", "o-1", "refund it, rephrased", CARD).value()).isEqualTo("paid:o-1");
        }
        assertThat(tools.bodies).hasValue(1);
        assertThat(asker.asked).hasSize(1);
        ApprovalAsker.Question q = asker.asked.get(0);
        assertThat(q.tool()).isEqualTo("pay");
        assertThat(q.target()).isEqualTo("[\"o-1\"]");
        assertThat(q.actor()).isEqualTo("alice");
        assertThat(q.args()).contains("refund it", "hmac:").doesNotContain(CARD);
        assertThat(q.message()).contains("pay", "[\"o-1\"]", "hmac:", "alice").doesNotContain(CARD);
        List<JournalRecord> verdicts = records(RecordType.APPROVAL);
        assertThat(verdicts).hasSize(1);
        assertThat(verdicts.get(0).verdict()).isEqualTo("approved");
        assertThat(verdicts.get(0).by()).isEqualTo("alice");
        assertThat(verdicts.get(0).via()).isEqualTo("elicitation");
        assertThat(verdicts.get(0).note()).isEqualTo("fine");
    }

    @Test
    void declinedEveryCallIsRefusedForGoodWithTheUsersWords() throws Exception {
        Tools tools = new Tools();
        Scripted asker = new Scripted(q -> new ApprovalAsker.Answer.Denied("not this customer"));
        List<Completion> answers = new ArrayList<>();
        try (CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + journal));
             ApprovalAsker.Binding b = ApprovalAsker.bind(asker);
             Task t = Task.open("t-1", "alice", Duration.ofSeconds(30))) {
            EngineHarness harness = new EngineHarness(engine);
            answers.add(harness.call(tools, "pay", "o-1", "refund it", CARD));
            answers.add(harness.call(tools, "pay", "o-1", "again", CARD));
        }
        for (Completion c : answers) {
            assertThat(c.thrown().getMessage()).contains("\"outcome\":\"permanent\"", "\"effect_applied\":\"no\"",
                    "a person denied this: not this customer");
        }
        assertThat(tools.bodies).hasValue(0);
        assertThat(asker.asked).hasSize(1);
        assertThat(records(RecordType.APPROVAL)).singleElement().satisfies(v -> {
            assertThat(v.verdict()).isEqualTo("denied");
            assertThat(v.via()).isEqualTo("elicitation");
        });
    }

    @Test
    void noAnswerOrAFailingAskerLeavesTheRequestWaitingAndNoRetryAsks() throws Exception {
        Tools tools = new Tools();
        Scripted cancelled = new Scripted(q -> new ApprovalAsker.Answer.NotAnswered("the user cancelled"));
        Scripted failing = new Scripted(q -> {
            throw new IllegalStateException("the transport broke");
        });
        try (CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + journal));
             Task t = Task.open("t-1", "alice", Duration.ofSeconds(30))) {
            EngineHarness harness = new EngineHarness(engine);
            try (ApprovalAsker.Binding b = ApprovalAsker.bind(cancelled)) {
                Completion first = harness.call(tools, "pay", "o-1", "refund it", CARD);
                assertThat(first.thrown().getMessage()).contains("\"outcome\":\"retryable\"",
                        "a person must approve this first", "the user cancelled", "the console or the CLI");
                Completion retry = harness.call(tools, "pay", "o-1", "refund it, please", CARD);
                assertThat(retry.thrown().getMessage()).contains("\"outcome\":\"retryable\"", "still pending");
            }
            try (ApprovalAsker.Binding b = ApprovalAsker.bind(failing)) {
                Completion other = harness.call(tools, "pay", "o-2", "refund", CARD);
                assertThat(other.thrown().getMessage()).contains("\"outcome\":\"retryable\"",
                        "a person must approve this first", "asking failed");
            }
        }
        assertThat(cancelled.asked).hasSize(1);
        assertThat(failing.asked).hasSize(1);
        assertThat(tools.bodies).hasValue(0);
        assertThat(records(RecordType.APPROVAL)).isEmpty();
        assertThat(records(RecordType.APPROVAL_REQUESTED)).hasSize(2);
    }

    @Test
    void turnedOffNobodyIsAsked() throws Exception {
        Tools tools = new Tools();
        Scripted asker = new Scripted(q -> new ApprovalAsker.Answer.Approved(null));
        try (CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + journal + ",approval.elicit=false"));
             ApprovalAsker.Binding b = ApprovalAsker.bind(asker);
             Task t = Task.open("t-1", "alice", Duration.ofSeconds(30))) {
            Completion c = new EngineHarness(engine).call(tools, "pay", "o-1", "refund it", CARD);
            assertThat(c.thrown().getMessage()).contains("a person must approve this first").doesNotContain("MCP");
        }
        assertThat(asker.asked).isEmpty();
        assertThat(tools.bodies).hasValue(0);
    }

    private List<JournalRecord> records(RecordType type) throws Exception {
        List<JournalRecord> out = new ArrayList<>();
        try (ChronicleJournal reader = ChronicleJournal.openReader(journal)) {
            reader.replay((index, r) -> {
                if (r.type() == type) {
                    out.add(r);
                }
            });
        }
        return out;
    }
}
