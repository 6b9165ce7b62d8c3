package dev.effectful.runtime.engine;

import dev.effectful.Attempt;
import dev.effectful.core.log.AgentLog;
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
 *
 * <p>The advice reports each header it put on a request ({@link #sent}), and the attempt's {@code key_sent}
 * record is journaled then, before the request leaves: only that record, not the tool's key header, lets
 * the re-entry table re-run an unknown attempt with the same key (a request through a client the agent does
 * not cover carried no key, and the service could not deduplicate its re-run).
 */
public final class KeyHeaders {

    private static final ThreadLocal<Binding> CURRENT = new ThreadLocal<>();

    /**
     * Journals that a covered client sent a key of the running attempt: the {@code key_sent} record of
     * {@code key} (the intent key, or a batch item's), written and folded into the index before the request
     * leaves. False when it could not be written: the request still goes, and the attempt is not keyable.
     */
    @FunctionalInterface
    interface SentKeys {
        boolean record(String key);
    }

    private KeyHeaders() {
    }

    /**
     * Binds the tool's key header to {@code attempt} on this thread; the returned scope closes
     * {@code attemptScope} too. Without a key header, {@code attemptScope} itself.
     *
     * @param itemKeys the keys of the batch items this attempt sends; null for a tool that is not a batch
     * @param sent     where a key seen going out is journaled
     */
    static Attempt.Scope bind(ToolMethod tool, Attempt attempt, Set<String> itemKeys, Attempt.Scope attemptScope,
                              SentKeys sent) {
        if (tool.keyHeader().isEmpty()) {
            return attemptScope;
        }
        Binding b = new Binding(tool, attempt, itemKeys, attemptScope, CURRENT.get(), sent);
        CURRENT.set(b);
        return b;
    }

    /** The intent record's {@code reentry} word: what the tool itself declares (a key header is per attempt). */
    static String reentryWord(ToolMethod tool) {
        return tool.reentryWord();
    }

    /**
     * Warns once per tool when the finished attempt of {@code binding} sent no key a {@code key_sent} record
     * shows: an unknown outcome of it is then probed or held, never re-run, and the user should know why.
     * A tool that declares {@code keyable = true} itself sends the key and is not warned about.
     */
    static void attemptEnded(Binding binding, boolean thrown) {
        ToolMethod tool = binding.tool;
        if (binding.asked || !binding.journaled.isEmpty() || tool.keyable()) {
            return; // a covered client saw a request: sent, kept (warned about apart), or not journaled (the same)
        }
        AgentLog.warnOnce("keyheader-unsent:" + tool.verb(), "tool " + tool.verb() + " declares keyHeader = \""
                + tool.keyHeader() + "\" but its attempt " + (thrown ? "failed" : "returned") + " with no request of the"
                + " JDK HttpClient, HttpURLConnection or OkHttp on its own thread carrying the key, so the service"
                + " has nothing to deduplicate a re-run on: an unknown outcome of such an attempt is"
                + " held for a probe or a person instead of re-run. Send the request through a covered client on the"
                + " body's thread, or set the header to Attempt.current().orElseThrow().requestKey() yourself and"
                + " declare keyable = true");
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
     * tool counted keyable may apply twice. Said once per tool. When it is the key, the key went out: a
     * {@code key_sent} record, as for a header the agent set.
     */
    public static void applicationKept(String value) {
        Binding b = CURRENT.get();
        if (b == null || Attempt.current().orElse(null) != b.attempt) {
            return;
        }
        b.asked = true;
        String expected = b.itemKeys == null ? b.attempt.intentKey() : b.attempt.requestKey();
        if (expected.equals(value)) {
            sent(value); // the application sent the very key: the service saw it
            return;
        }
        // no key_sent for it: the service deduplicates on a value the agent knows nothing of
        AgentLog.warnOnce("keyheader-kept:" + b.tool.verb(), "tool " + b.tool.verb() + ": a request already carried "
                + b.tool.keyHeader() + " set by the application or its HTTP library, kept as is, so the service"
                + " deduplicates on that value, not on the intent key, and an unknown outcome of the attempt is held for"
                + " a probe or a person rather than re-run (with keyable = true declared it is re-run, and a value that is"
                + " not the same on every retry, as Stripe's Java library's random one per POST, may apply twice): pass"
                + " Attempt.current().orElseThrow().requestKey() as the library's idempotency key (Stripe:"
                + " RequestOptions.builder().setIdempotencyKey(...))");
    }

    /**
     * A covered client put {@code value} (what {@link #forRequest} gave) in the key header of a request that
     * is about to leave: journal it as this attempt's {@code key_sent}, once per key, before the request goes.
     * A value that is not a key of the running attempt is ignored.
     */
    public static void sent(String value) {
        Binding b = CURRENT.get();
        if (b == null || value == null || Attempt.current().orElse(null) != b.attempt) {
            return;
        }
        boolean ours = b.itemKeys == null ? value.equals(b.attempt.intentKey()) : b.itemKeys.contains(value);
        if (!ours || b.journaled.contains(value)) {
            return;
        }
        if (b.sent.record(value)) {
            b.journaled.add(value);
        } else {
            AgentLog.warnOnce("keysent-unjournaled:" + b.tool.verb(), "tool " + b.tool.verb() + ": the journal could"
                    + " not record that its key went out in " + b.tool.keyHeader() + "; the request is sent, but an"
                    + " unknown outcome of this attempt is probed or held for a person, not re-run");
        }
    }

    /** One attempt's key header on one thread; closing it restores what was bound before. */
    static final class Binding implements Attempt.Scope {
        private final ToolMethod tool;
        private final Attempt attempt;
        private final Set<String> itemKeys;
        private final Attempt.Scope attemptScope;
        private final Binding before;
        private final SentKeys sent;
        /** Whether a covered client saw a request of the body (asked for the header, or found the application's). */
        private boolean asked;
        /** The keys journaled as sent in this attempt; only the body's thread touches it. */
        private final Set<String> journaled = new java.util.HashSet<>(2);

        private Binding(ToolMethod tool, Attempt attempt, Set<String> itemKeys, Attempt.Scope attemptScope,
                        Binding before, SentKeys sent) {
            this.tool = tool;
            this.attempt = attempt;
            this.itemKeys = itemKeys;
            this.attemptScope = attemptScope;
            this.before = before;
            this.sent = sent;
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
