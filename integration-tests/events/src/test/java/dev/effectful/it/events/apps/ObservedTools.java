package dev.effectful.it.events.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Tools for each path a call can take: a new call and its dedup, an unknown outcome and its hold,
 * a refusal (a floor no task budget here meets), and a shipment whose body lands its effect (a
 * marker file) and then hangs, so a test can kill the JVM there and the next run's probe finds it.
 * Every tool takes a {@code @Redact} token that must never show in any sink.
 */
public class ObservedTools {

    /** The secret every call passes; a test asserts it appears nowhere. */
    public static final String SECRET = "tok-S3CR3T-4242-never-shown";

    private final Path marks;
    /** Runs inside send_email's body, so an application span made there nests under the tool's. */
    private final Consumer<String> insideBody;

    public ObservedTools(Path marks, Consumer<String> insideBody) {
        this.marks = marks;
        this.insideBody = insideBody;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email")
    public String sendEmail(@IntentKey String orderId, @Redact String token, String body) {
        insideBody.accept("POST /mail " + orderId);
        return "sent:" + orderId;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "notify_customer")
    public String notifyCustomer(@IntentKey String who, @Redact String token) {
        // the message quotes the secret: only the exception's class may reach a sink
        throw new IllegalStateException("connection reset after the request with " + token + " was sent");
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge", floorMillis = 3_600_000)
    public String charge(@IntentKey String account, @Redact String token) {
        return "charged:" + account;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "ship_order", probe = "findShipment")
    public String shipOrder(@IntentKey String orderId, @Redact String token) throws InterruptedException {
        try {
            Files.writeString(marks.resolve("shipped-" + orderId), "shipped");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.println("IN_BODY ship_order " + orderId);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // the effect has landed; the process dies here
        return "shipped:" + orderId;
    }

    private volatile boolean paged;

    @EffectfulTool(kind = EffectKind.SEND, name = "page_on_call", probe = "wasPaged")
    public String pageOnCall(@IntentKey String who, @Redact String token) {
        if (!paged) {
            paged = true;
            throw new IllegalStateException("the pager's answer was lost"); // unknown: the next call probes
        }
        return "paged:" + who;
    }

    Optional<String> wasPaged(String who, String token) {
        return paged ? Optional.of("paged:" + who) : Optional.empty();
    }

    Optional<String> findShipment(String orderId, String token) {
        return Files.exists(marks.resolve("shipped-" + orderId)) ? Optional.of("shipped:" + orderId) : Optional.empty();
    }
}
