package dev.effectful.junit;

import dev.effectful.Attempt;
import dev.effectful.EffectfulTool;
import dev.effectful.runtime.engine.KeyHeaders;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the agent does for {@code @EffectfulTool(keyHeader = ...)}, done at the kit's loopback service:
 * the agent puts the intent key on the requests the body sends through a covered HTTP client; the kit,
 * which has no agent, puts it on the requests its {@link FakeHttpService} receives while the body runs.
 * A request that already carries the header keeps the application's value, as under the agent. So a
 * key-header tool is judged as the agent runs it: by what the service saw (how many effects, which keys).
 *
 * <p>Only when the running bodies agree on one key: two bodies of different intents at once would make
 * a request's key a guess, and a guessed key could hide a duplicate. Batch tools (whose key is per item,
 * named on the body's thread) get none.
 */
final class KeyRelay {

    /** An effect request as the service saw it: its key header's value, and whether the application set it. */
    record Sent(String method, String path, String header, String key, boolean setByApplication) {
    }

    /** One running body's key: open from the body's start to its end, on the body's thread. */
    static final class Carrier implements AutoCloseable {
        private final KeyRelay relay;
        final String header;
        final String key;
        private volatile boolean carried;
        private volatile String kept;

        private Carrier(KeyRelay relay, String header, String key) {
            this.relay = relay;
            this.header = header;
            this.key = key;
        }

        /**
         * Tells the engine what a covered client would have told it: the key went out (so a re-run after
         * an unknown outcome may count on it), or the application's own value did. Runs on the body's
         * thread while the attempt is still current.
         */
        @Override
        public void close() {
            relay.open.remove(this);
            if (kept != null) {
                KeyHeaders.applicationKept(kept);
            } else if (carried) {
                KeyHeaders.forRequest();
            }
        }
    }

    private final Set<Carrier> open = ConcurrentHashMap.newKeySet();
    private final List<Sent> seen = new CopyOnWriteArrayList<>();

    /** The key of the body about to run on this thread, or null when the tool sends none. */
    Carrier open(EffectfulTool spec, boolean batch) {
        if (spec.keyHeader().isEmpty() || batch) {
            return null;
        }
        Attempt attempt = Attempt.current().orElse(null);
        if (attempt == null) {
            return null;
        }
        Carrier c = new Carrier(this, spec.keyHeader(), attempt.requestKey());
        open.add(c);
        return c;
    }

    /** The request as the service receives it: with the running body's key header added when due. */
    FakeHttpService.Request onRequest(FakeHttpService.Request req, boolean effect) {
        Carrier only = single();
        if (only == null) {
            return req;
        }
        String own = req.header(only.header).orElse(null);
        if (own != null) {
            only.kept = own;
            if (effect) {
                seen.add(new Sent(req.method(), req.path(), only.header, own, true));
            }
            return req;
        }
        only.carried = true;
        if (effect) {
            seen.add(new Sent(req.method(), req.path(), only.header, only.key, false));
        }
        Map<String, List<String>> headers = new HashMap<>(req.headers());
        headers.put(only.header, List.of(only.key));
        return new FakeHttpService.Request(req.method(), req.path(), req.query(), Map.copyOf(headers), req.body());
    }

    private Carrier single() {
        Carrier first = null;
        for (Carrier c : open) {
            if (first == null) {
                first = c;
            } else if (!first.header.equalsIgnoreCase(c.header) || !first.key.equals(c.key)) {
                return null;
            }
        }
        return first;
    }

    /** How many effect requests carried a key header so far; a mark for {@link #since}. */
    int mark() {
        return seen.size();
    }

    /** The effect requests that carried a key header since {@code mark}. */
    List<Sent> since(int mark) {
        List<Sent> all = new ArrayList<>(seen);
        return all.subList(Math.min(mark, all.size()), all.size());
    }
}
