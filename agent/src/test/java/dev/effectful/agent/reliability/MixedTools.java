package dev.effectful.agent.reliability;

import dev.effectful.Approval;
import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import kotlin.ResultKt;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.SafeContinuation;
import kotlin.coroutines.intrinsics.IntrinsicsKt;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The combined campaign's tools beyond the blocking ones, each an effect at the ledger:
 * <ul>
 * <li>{@code book_async}: returns a {@code CompletableFuture}; the request runs on a pool thread after the
 * call has returned (CREATE with a probe);</li>
 * <li>{@code push_suspend}: a Kotlin {@code suspend fun}, written in Java in the exact shape the Kotlin
 * compiler emits for one whose only suspension is a tail {@code suspendCoroutine} (a
 * {@code SafeContinuation} over the intercepted continuation, {@code COROUTINE_SUSPENDED} returned, resumed
 * from another thread); called through kotlinx's {@code runBlocking} (SEND, no probe: held when cut);</li>
 * <li>{@code transfer}: {@code approval = REQUIRED}; the campaign approves each request through the CLI
 * (MONEY with a probe);</li>
 * <li>{@code pay_keyed}: {@code keyHeader = "Idempotency-Key"}, no probe; the agent puts the intent key on
 * the JDK {@code HttpClient} request, and the ledger refuses a request without it and deduplicates on it.</li>
 * </ul>
 */
public class MixedTools {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "mixed-tools");
        t.setDaemon(true);
        return t;
    });

    private static String key() {
        return Attempt.current().map(Attempt::intentKey).orElse("none");
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "book_async", probe = "findBooking")
    public CompletableFuture<String> bookAsync(@IntentKey String ref) {
        String k = key(); // Attempt.current() is set only before the hand-off
        return CompletableFuture.supplyAsync(() -> {
            try {
                return LedgerClient.effect("book_async", ref, k, "count", null);
            } catch (IOException | InterruptedException e) {
                throw new CompletionException(e);
            }
        }, POOL);
    }

    String findBooking(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("book_async", ref);
    }

    /**
     * {@code suspend fun pushSuspend(@IntentKey ref: String): String = suspendCoroutine { c -> pool.execute { ... } }}
     * as kotlinc compiles it: {@code Object pushSuspend(String, Continuation)}.
     */
    @EffectfulTool(kind = EffectKind.SEND, name = "push_suspend")
    public Object pushSuspend(@IntentKey String ref, Continuation<? super String> completion) {
        String k = key();
        SafeContinuation<String> safe = new SafeContinuation<>(IntrinsicsKt.intercepted(completion));
        POOL.execute(() -> {
            Object result;
            try {
                result = LedgerClient.effect("push_suspend", ref, k, "count", null);
            } catch (Throwable t) {
                result = ResultKt.createFailure(t);
            }
            safe.resumeWith(result);
        });
        return safe.getOrThrow();
    }

    /**
     * How a Kotlin caller calls {@code push_suspend}: {@code runBlocking { tools.pushSuspend(ref) }} (a real event
     * loop as dispatcher and a real {@code Job} in the context). Here, so that only this class names Kotlin types.
     */
    public static Object runBlocking(MixedTools tools, String ref) throws InterruptedException {
        return kotlinx.coroutines.BuildersKt.runBlocking(kotlin.coroutines.EmptyCoroutineContext.INSTANCE,
                (scope, continuation) -> tools.pushSuspend(ref, continuation));
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "transfer", probe = "findTransfer", approval = Approval.REQUIRED)
    public String transfer(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("transfer", ref, key(), "count", null);
    }

    String findTransfer(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("transfer", ref);
    }

    /** No header set here: the agent adds it; the ledger answers 400 to a request without it. */
    @EffectfulTool(kind = EffectKind.MONEY, name = "pay_keyed", keyHeader = "Idempotency-Key")
    public String payKeyed(@IntentKey String ref) throws IOException, InterruptedException {
        return LedgerClient.effect("pay_keyed", ref, key(), "header", null);
    }
}
