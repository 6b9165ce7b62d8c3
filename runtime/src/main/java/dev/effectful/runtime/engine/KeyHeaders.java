package dev.effectful.runtime.engine;

import dev.effectful.Attempt;
import dev.effectful.runtime.log.AgentLog;
import dev.effectful.runtime.tool.ToolMethod;

import java.util.Set;

/**
 * The key header of the attempt running on this thread ({@code @EffectfulTool(keyHeader = ...)}),
 * for the HTTP-client advice to put on the requests the body sends. Bound where the engine makes the
 * attempt current and unbound with it; a tool without a key header binds nothing, so the advice of
 * every other request finds an empty thread-local.
 *
 * <p>Batch items: the body names the item it sends with {@code Attempt.sending(itemId)}, and its
 * requests carry that item's key. A request of a batch body that names no item, or one not sent in
 * this attempt, carries no header: the batch's own key would let the service answer one item's
 * request with another item's earlier response, which is worse than no deduplication.
 */
public final class KeyHeaders {

    private static final ThreadLocal<Binding> CURRENT = new ThreadLocal<>();

    /**
     * Tools with a key header whose last attempt in this process ended without any request of a
     * covered client carrying it (an Apache or Netty client, a request sent from another thread).
     * Their keyHeader no longer counts as keyable until an attempt is seen carrying the key again:
     * a re-run after an unknown outcome would otherwise send the same create with nothing for the
     * service to deduplicate on. A tool that also declares {@code keyable = true} itself is trusted.
     */
    private static final Set<ToolMethod> UNSENT = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private KeyHeaders() {
    }

    /**
     * Binds the tool's key header to {@code attempt} on this thread; the returned scope closes
     * {@code attemptScope} too. Without a key header, {@code attemptScope} itself.
     *
     * @param itemKeys the keys of the batch items this attempt sends; null for a tool that is not a batch
     */
    static Attempt.Scope bind(ToolMethod tool, Attempt attempt, Set<String> itemKeys, Attempt.Scope attemptScope) {
        if (tool.keyHeader().isEmpty()) {
            return attemptScope;
        }
        Binding b = new Binding(tool, attempt, itemKeys, attemptScope, CURRENT.get());
        CURRENT.set(b);
        return b;
    }

    /**
     * Whether a re-entry may count on the key deduplicating a repeat: the tool's claim, except for a key
     * header its last attempt here was not seen sending.
     */
    static boolean keyable(ToolMethod tool) {
        return tool.keyable() && (UNSENT.isEmpty() || !UNSENT.contains(tool));
    }

    /** The intent record's {@code reentry} word, as {@link #keyable} has it now. */
    static String reentryWord(ToolMethod tool) {
        return keyable(tool) ? tool.reentryWord() : tool.reentryWord(false);
    }

    /**
     * Records what the finished attempt of {@code binding} showed: its key went out on a covered client's
     * request (the key header is trusted again), or not (withdrawn, with a warning once per tool).
     */
    static void attemptEnded(Binding binding, boolean thrown) {
        ToolMethod tool = binding.tool;
        if (binding.asked) {
            UNSENT.remove(tool);
            return;
        }
        if (declaresKeyable(tool) || !UNSENT.add(tool)) {
            return;
        }
        AgentLog.warnOnce("keyheader-unsent:" + tool.verb(), "tool " + tool.verb() + " declares keyHeader = \""
                + tool.keyHeader() + "\" but its attempt " + (thrown ? "failed" : "returned") + " with no request of the"
                + " JDK HttpClient, HttpURLConnection or OkHttp on its own thread carrying the key, so the service"
                + " has nothing to deduplicate a re-run on: until one does, an unknown outcome of this tool is held"
                + " for a probe or a person instead of re-run. Send the request through a covered client on the"
                + " body's thread, or set the header to Attempt.current().orElseThrow().requestKey() yourself and"
                + " declare keyable = true");
    }

    /** The tool's own {@code keyable = true}, beside its key header: the application sends the key itself. */
    private static boolean declaresKeyable(ToolMethod tool) {
        return dev.effectful.runtime.tool.DeclaredTool.of(tool.method()).map(d -> d.spec().keyable()).orElse(false);
    }

    /**
     * The header name and value for a request being sent on this thread now, or null when none is due:
     * no attempt of a tool with a key header is running here (a guarded call nested inside one runs as
     * its own attempt and gets its own tool's header, or none).
     */
    public static String[] forRequest() {
        Binding b = CURRENT.get();
        if (b == null || Attempt.current().orElse(null) != b.attempt) {
            return null;
        }
        b.asked = true;
        if (b.itemKeys == null) {
            return new String[] {b.tool.keyHeader(), b.attempt.intentKey()};
        }
        String key = b.attempt.requestKey();
        if (key.equals(b.attempt.intentKey())) {
            AgentLog.warnOnce("keyheader-noitem:" + b.tool.verb(), "batch tool " + b.tool.verb() + " sent a request"
                    + " without naming its item, so it carries no " + b.tool.keyHeader() + " header (the batch's key"
                    + " would let the service answer one item with another's response): send each item inside"
                    + " try (Attempt.Scope s = attempt.sending(item.id())) { ... }");
            return null;
        }
        if (!b.itemKeys.contains(key)) {
            AgentLog.warnOnce("keyheader-otheritem:" + b.tool.verb(), "batch tool " + b.tool.verb() + " named with"
                    + " Attempt.sending an item this attempt does not send (already done, refused, or not in the"
                    + " batch); its request carries no " + b.tool.keyHeader() + " header");
            return null;
        }
        return new String[] {b.tool.keyHeader(), key};
    }

    /**
     * A request of the running attempt already carried the key header with {@code value}, set by the
     * application or its HTTP library, and kept. When that is not the key the agent would have sent, the
     * service deduplicates on a value the agent knows nothing of: stable, it works; random per request
     * (Stripe's Java library sets one on every POST without an idempotency key of its own), a re-run of a
     * tool counted keyable may apply twice. Said once per tool.
     */
    public static void applicationKept(String value) {
        Binding b = CURRENT.get();
        if (b == null || Attempt.current().orElse(null) != b.attempt) {
            return;
        }
        b.asked = true;
        String expected = b.itemKeys == null ? b.attempt.intentKey() : b.attempt.requestKey();
        if (!expected.equals(value)) {
            AgentLog.warnOnce("keyheader-kept:" + b.tool.verb(), "tool " + b.tool.verb() + ": a request already carried "
                    + b.tool.keyHeader() + " set by the application or its HTTP library, kept as is, so the service"
                    + " deduplicates on that value, not on the intent key. If it is not the same on every retry (Stripe's"
                    + " Java library sets a random one per POST), a re-run may apply twice: pass"
                    + " Attempt.current().orElseThrow().requestKey() as the library's idempotency key (Stripe:"
                    + " RequestOptions.builder().setIdempotencyKey(...))");
        }
    }

    /** One attempt's key header on one thread; closing it restores what was bound before. */
    static final class Binding implements Attempt.Scope {
        private final ToolMethod tool;
        private final Attempt attempt;
        private final Set<String> itemKeys;
        private final Attempt.Scope attemptScope;
        private final Binding before;
        /** Whether a covered client sent a request in the body; only the body's thread writes it. */
        private boolean asked;

        private Binding(ToolMethod tool, Attempt attempt, Set<String> itemKeys, Attempt.Scope attemptScope,
                        Binding before) {
            this.tool = tool;
            this.attempt = attempt;
            this.itemKeys = itemKeys;
            this.attemptScope = attemptScope;
            this.before = before;
        }

        @Override
        public void close() {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
            attemptScope.close();
        }
    }
}
