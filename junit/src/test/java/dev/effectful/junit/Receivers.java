package dev.effectful.junit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** The fakes the kit's tests put behind its loopback service: a mailbox, a sheet and a price list. */
final class Receivers {

    private Receivers() {
    }

    /** POST /emails?order=X sends a mail (every POST is an effect); GET /emails?order=X finds it. */
    static final class Mailbox implements FakeHttpService.Handler {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final Map<String, String> byOrder = new ConcurrentHashMap<>();

        @Override
        public FakeHttpService.Response handle(FakeHttpService.Request req) {
            String order = req.query("order").orElse("");
            if (req.method().equals("POST")) {
                sent.add(req.body());
                String answer = "{\"id\":\"m-" + sent.size() + "\",\"status\":\"sent\"}";
                byOrder.put(order, answer);
                return FakeHttpService.Response.ok(answer);
            }
            String found = byOrder.get(order);
            return found == null ? FakeHttpService.Response.status(404) : FakeHttpService.Response.ok(found);
        }

        int count() {
            return sent.size();
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
