package dev.effectful.runtime.engine;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Redact;
import dev.effectful.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The engine's answers to a call whose result quoted a {@code @Redact} secret, and to its repeats. */
class RedactionEngineTest {

    private static final String TOKEN = "tok-Zq81-secret";

    @RegisterExtension
    static final EngineHarness.PerClass harness = EngineHarness.perClass();

    public static class Tools {
        final AtomicInteger bodies = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean hold;

        @EffectfulTool(kind = EffectKind.CREATE, name = "issue")
        public String issue(@IntentKey String user, @Redact String token) throws InterruptedException {
            bodies.incrementAndGet();
            if (hold) {
                release.await(30, TimeUnit.SECONDS);
            }
            return "session for " + token;
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "refuse")
        public Outcome<String> refuse(@IntentKey String user, @Redact String token) {
            return Outcome.permanent("the service said: " + token + " is revoked");
        }
    }

    @Test
    void aConcurrentRepeatIsAnsweredAsALaterRepeatWouldBe() throws Exception {
        Tools tools = new Tools();
        tools.hold = true;
        CompletableFuture<Completion> first = CompletableFuture.supplyAsync(() -> {
            try (Task t = Task.open("t-concurrent", Duration.ofSeconds(30))) {
                return harness.call(tools, "issue", "ann", TOKEN);
            }
        });
        await().atMost(Duration.ofSeconds(20)).until(() -> tools.bodies.get() == 1);
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<Completion> second = CompletableFuture.supplyAsync(() -> {
            waiter.set(Thread.currentThread());
            try (Task t = Task.open("t-concurrent", Duration.ofSeconds(30))) {
                return harness.call(tools, "issue", "ann", TOKEN);
            }
        });
        // the second call is parked on the first's in-flight answer before the first returns
        await().atMost(Duration.ofSeconds(20)).until(() -> waiter.get() != null
                && waiter.get().getState() == Thread.State.TIMED_WAITING);
        tools.release.countDown();

        assertThat(first.get(30, TimeUnit.SECONDS).value()).isEqualTo("session for " + TOKEN);
        String answer = (String) second.get(30, TimeUnit.SECONDS).value();
        assertThat(answer).doesNotContain(TOKEN).startsWith("{\"outcome\":\"ok\"")
                .contains("the original result was not stored (it held a redacted value)");
        assertThat(tools.bodies).hasValue(1);

        try (Task t = Task.open("t-concurrent", Duration.ofSeconds(30))) {
            assertThat((String) harness.call(tools, "issue", "ann", TOKEN).value())
                    .contains("the original result was not stored (it held a redacted value)");
        }
        assertThat(tools.bodies).hasValue(1);
    }

    @Test
    void anOutcomeTheToolBuiltItselfIsRedactedToo() {
        try (Task t = Task.open("t-own", Duration.ofSeconds(30))) {
            Object value = harness.call(new Tools(), "refuse", "ann", TOKEN).value();
            assertThat(((Outcome<?>) value).toJson()).doesNotContain(TOKEN).contains("hmac:");
        }
    }
}
