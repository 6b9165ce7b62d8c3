package dev.effectful.cli;

import dev.effectful.Approval;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.runtime.approval.ApprovalAsker;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.Completion;
import dev.effectful.runtime.engine.EngineFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The user's answer to an MCP elicitation and a person's verdict from the shell, on the same intent at the same
 * moment, while the engine writes the journal: the asker and {@code journal deny} are released together by a
 * barrier, {@link #ROUNDS} times (in every other round the answer comes as the shell's request reaches the writer). Whichever is recorded first stands, alone: one approval record; the call does what
 * that verdict says (approved: the body once; denied: refused for good with the person's words); the shell is told
 * the truth (recorded, or already decided naming the verdict that stands); nothing is left in the request directory.
 */
class ElicitedVerdictRaceTest {

    static final int ROUNDS = 8;

    @TempDir
    Path tmp;

    /** The tool, with its own count of bodies run. */
    public static final class Tools {
        final AtomicInteger bodies = new AtomicInteger();

        @EffectfulTool(kind = EffectKind.MONEY, name = "refund", approval = Approval.REQUIRED)
        public String refund(@IntentKey String order) {
            bodies.incrementAndGet();
            return "refunded:" + order;
        }
    }

    @Test
    void anElicitedApprovalAndADenialFromTheShellAtOnceRecordOneVerdictAndTheCallFollowsIt() throws Exception {
        int elicitationWon = 0;
        int shellWon = 0;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                Path dir = tmp.resolve("race-" + round);
                Tools tools = new Tools();
                CyclicBarrier together = new CyclicBarrier(2);
                CountDownLatch asked = new CountDownLatch(1);
                AtomicReference<String> key = new AtomicReference<>();
                AtomicBoolean shellDone = new AtomicBoolean();
                // even rounds: both released together; odd rounds: the answer waits until the shell has handed its
                // verdict to the writer, so the two meet where the writer records
                boolean late = round % 2 == 1;
                ApprovalAsker asker = new ApprovalAsker() {
                    @Override
                    public Answer ask(Question q, Duration wait) {
                        key.set(q.intentKey());
                        asked.countDown();
                        try {
                            together.await(30, TimeUnit.SECONDS);
                            if (late) {
                                // the shell's verdict is on its way to the writer: the answer meets it there
                                Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(1))
                                        .until(() -> Files.exists(ResolutionRequest.file(dir, q.intentKey())) || shellDone.get());
                            }
                        } catch (Exception e) {
                            return new Answer.NotAnswered("the race's barrier broke: " + e);
                        }
                        return new Answer.Approved("yes, from the chat");
                    }

                    @Override
                    public String via() {
                        return "elicitation";
                    }
                };
                String seen;
                try (CallEngine engine = EngineFactory.create(EffectfulConfig.load("journal=" + dir))) {
                    int r = round;
                    Future<Completion> call = pool.submit(() -> {
                        try (ApprovalAsker.Binding b = ApprovalAsker.bind(asker);
                             Task t = Task.open("race-" + r, "alice", Duration.ofSeconds(60))) {
                            return call(engine, tools, "o-" + r);
                        }
                    });
                    assertThat(asked.await(30, TimeUnit.SECONDS)).as("round %d: the call asked the user", round).isTrue();
                    Future<TestJournals.Run> shell = pool.submit(() -> {
                        together.await(30, TimeUnit.SECONDS);
                        try {
                            return TestJournals.cli("--dir", dir.toString(), "deny", key.get(), "--note", "not this customer",
                                    "--by", "bob");
                        } finally {
                            shellDone.set(true);
                        }
                    });
                    Completion answer = call.get(60, TimeUnit.SECONDS);
                    TestJournals.Run cli = shell.get(60, TimeUnit.SECONDS);
                    seen = "round " + round + ": call " + answer + ", shell exit " + cli.code() + ": " + cli.out() + cli.err();
                    List<JournalRecord> verdicts = SimultaneousVerdictsTest.verdicts(dir, key.get(), RecordType.APPROVAL);
                    assertThat(verdicts).as(seen).hasSize(1);
                    JournalRecord stands = verdicts.get(0);
                    if ("elicitation".equals(stands.via())) {
                        elicitationWon++;
                        assertThat(stands.verdict()).as(seen).isEqualTo("approved");
                        assertThat(stands.by()).as(seen).isEqualTo("alice");
                        assertThat(answer.value()).as(seen).isEqualTo("refunded:o-" + round);
                        assertThat(tools.bodies).as(seen).hasValue(1);
                        assertThat(cli.code()).as(seen).isNotEqualTo(JournalCli.OK);
                        assertThat(cli.out() + cli.err()).as(seen).contains("already", "approved by alice");
                    } else {
                        shellWon++;
                        assertThat(stands.verdict()).as(seen).isEqualTo("denied");
                        assertThat(stands.by()).as(seen).contains("bob");
                        assertThat(cli.code()).as(seen).isEqualTo(JournalCli.OK);
                        assertThat(tools.bodies).as(seen).hasValue(0);
                        assertThat(answer.thrown()).as(seen).isNotNull();
                        assertThat(answer.thrown().getMessage()).as(seen)
                                .contains("\"outcome\":\"permanent\"", "\"effect_applied\":\"no\"", "not this customer");
                    }
                }
                assertThat(SimultaneousVerdictsTest.leftIn(dir)).as(seen + ": files left in resolutions/").isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.println("elicitation and shell at once: the elicitation stood " + elicitationWon + " times, the shell "
                + shellWon + " times, of " + ROUNDS);
    }

    /** One call through the engine as the advice makes it: enter, the body unless skipped, exit. */
    private static Completion call(CallEngine engine, Tools tools, String order) throws Exception {
        Method m = Tools.class.getMethod("refund", String.class);
        Object[] args = {order};
        Object handle = engine.enter(Tools.class, "refund(Ljava/lang/String;)Ljava/lang/String;", tools, args);
        assertThat(handle).as("the engine guards the call").isNotNull();
        if (engine.skipBody(handle)) {
            return engine.exit(handle, null, null);
        }
        try {
            return engine.exit(handle, m.invoke(tools, engine.arguments(handle, args)), null);
        } catch (InvocationTargetException e) {
            return engine.exit(handle, null, e.getCause());
        }
    }
}
