package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Redact;
import dev.effectful.Slot;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Tools as an application writes them: plain methods, annotated, with no Effectful code inside. */
public class CoreTools {

    static String key() {
        return Attempt.current().map(Attempt::intentKey).orElse("no-attempt");
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email")
    public String sendEmail(@IntentKey String to, String subject, @Redact String secret) throws IOException, InterruptedException {
        return Http.effect("send_email", key());
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_reminder")
    public String sendReminder(@IntentKey String to, @Slot int number, String text) throws IOException, InterruptedException {
        return Http.effect("send_reminder", key());
    }

    /** No network at all: for the start-up and socket tests. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "note")
    public String note(@IntentKey String id, String text) {
        return "noted:" + id;
    }

    @EffectfulTool(kind = EffectKind.READ, name = "get_price")
    public int getPrice(@IntentKey String sku) {
        return 42;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "notify")
    public void notifyUser(@IntentKey String user, String text) throws IOException, InterruptedException {
        Http.effect("notify", key());
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_order")
    public Outcome<String> createOrder(@IntentKey String orderId, int quantity) throws IOException, InterruptedException {
        return Outcome.ok(Http.effect("create_order", key()));
    }

    // ---- classification: each method fails in one way ----

    @EffectfulTool(kind = EffectKind.SEND, name = "refused")
    public String connectRefused(@IntentKey String id) throws IOException, InterruptedException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", closedPort), 2000);
        }
        throw new IllegalStateException("connected to a closed port?");
    }

    /** Connected and sent, then no answer: a raw socket, so only the read can time out. */
    @EffectfulTool(kind = EffectKind.SEND, name = "read_timeout")
    public String readTimeout(@IntentKey String id) throws IOException {
        java.net.URI ledger = java.net.URI.create(Http.ledger());
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new InetSocketAddress(ledger.getHost(), ledger.getPort()), 10_000);
            socket.getOutputStream().write(("POST /hang HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.setSoTimeout(300);
            return "read " + socket.getInputStream().read();
        }
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "http_status")
    public HttpResponse<String> httpStatus(@IntentKey String id, int code) throws IOException, InterruptedException {
        return Http.post("/status/" + code, id, Duration.ofSeconds(5));
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "bad_argument")
    public String badArgument(@IntentKey String id) {
        throw new IllegalArgumentException("quantity must be positive");
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "mystery")
    public String mystery(@IntentKey String id) {
        throw new IllegalStateException("something odd");
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "checked")
    public String checked(@IntentKey String id) throws Exception {
        throw new Exception("a checked failure");
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "outcome_refused")
    public Outcome<String> outcomeRefused(@IntentKey String id) throws IOException {
        throw new ConnectException("Connection refused");
    }

    // ---- bad input ----

    @EffectfulTool(kind = EffectKind.CREATE, name = "store")
    public String store(@IntentKey String id, Object payload) {
        return "stored:" + id;
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "store_by_object")
    public String storeByObject(@IntentKey Object target) {
        return "stored";
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "unserializable_result")
    public Object unserializableResult(@IntentKey String id) {
        return new Cyclic();
    }

    @EffectfulTool(kind = EffectKind.READ, name = "echo")
    public String echo(@IntentKey String id) {
        return "echo:" + id;
    }

    /** A value Jackson cannot serialize: it refers to itself. */
    public static final class Cyclic {
        public Cyclic self = this;
        public String name = "loop";
    }

    /** A getter that throws. */
    public static final class Exploding {
        public String getValue() {
            throw new IllegalStateException("boom");
        }
    }

    public static Map<String, Object> cyclicMap() {
        Map<String, Object> m = new java.util.HashMap<>();
        m.put("me", m);
        return m;
    }

    public static List<String> list(String... s) {
        return List.of(s);
    }
}
