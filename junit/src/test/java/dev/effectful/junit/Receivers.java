package dev.effectful.junit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** The fakes the kit's tests put behind its loopback service: a mailbox, a sheet and a price list. */
final class Receivers {

    private Receivers() {
    }

    /**
     * POST /emails?order=X sends a mail (every POST is an effect); GET /emails?order=X finds it; GET
     * /status?order=X reads the order's status; GET /receipts?order=X answers 200 once the mail was
     * delivered, {@link #DELIVERY_MILLIS} ms after it was sent.
     */
    static final class Mailbox implements FakeHttpService.Handler {
        static final long DELIVERY_MILLIS = 1500;
        final List<String> sent = new CopyOnWriteArrayList<>();
        final Map<String, String> byOrder = new ConcurrentHashMap<>();
        final Map<String, Long> sentAt = new ConcurrentHashMap<>();

        @Override
        public FakeHttpService.Response handle(FakeHttpService.Request req) {
            String order = req.query("order").orElse("");
            if (req.method().equals("POST")) {
                sent.add(req.body());
                String answer = "{\"id\":\"m-" + sent.size() + "\",\"status\":\"sent\"}";
                byOrder.put(order, answer);
                sentAt.put(order, System.nanoTime());
                return FakeHttpService.Response.ok(answer);
            }
            if (req.path().endsWith("/status")) {
                return FakeHttpService.Response.ok("{\"order\":\"" + order + "\",\"status\":\"shipped\"}");
            }
            if (req.path().endsWith("/receipts")) {
                Long at = sentAt.get(order);
                boolean delivered = at != null && System.nanoTime() - at >= DELIVERY_MILLIS * 1_000_000;
                return delivered ? FakeHttpService.Response.ok("{\"delivered\":true}") : FakeHttpService.Response.status(404);
            }
            String found = byOrder.get(order);
            return found == null ? FakeHttpService.Response.status(404) : FakeHttpService.Response.ok(found);
        }

        int count() {
            return sent.size();
        }
    }

    /**
     * POST /orders creates an order, deduplicating on Idempotency-Key as Stripe and its peers do: a request
     * carrying a key seen before gets the first response and creates nothing. {@code honoursKey = false}
     * plays a service that ignores the header.
     */
    static final class Orders implements FakeHttpService.Handler {
        final List<String> created = new CopyOnWriteArrayList<>();
        final Map<String, String> byKey = new ConcurrentHashMap<>();
        final List<String> keysSeen = new CopyOnWriteArrayList<>();
        private final boolean honoursKey;

        Orders(boolean honoursKey) {
            this.honoursKey = honoursKey;
        }

        @Override
        public synchronized FakeHttpService.Response handle(FakeHttpService.Request req) {
            if (!req.method().equals("POST")) {
                return FakeHttpService.Response.status(404);
            }
            String key = req.header("Idempotency-Key").orElse(null);
            keysSeen.add(String.valueOf(key));
            if (honoursKey && key != null && byKey.containsKey(key)) {
                return FakeHttpService.Response.ok(byKey.get(key));
            }
            created.add(req.body());
            String answer = "{\"id\":\"ord_" + created.size() + "\",\"status\":\"created\"}";
            if (key != null) {
                byKey.put(key, answer);
            }
            return FakeHttpService.Response.ok(answer);
        }

        int count() {
            return created.size();
        }
    }

    /** POST /rows?sheet=S&id=I writes a row; ids containing "bad" are refused with 422. */
    static final class Sheet implements FakeHttpService.Handler {
        final List<String> written = new CopyOnWriteArrayList<>();

        @Override
        public FakeHttpService.Response handle(FakeHttpService.Request req) {
            String id = req.query("id").orElse("");
            if (id.contains("bad")) {
                return FakeHttpService.Response.json(422, "{\"error\":\"merged cell\"}");
            }
            written.add(id);
            return FakeHttpService.Response.ok("{\"written\":\"" + id + "\"}");
        }

        int count() {
            return written.size();
        }
    }
}
