package dev.effectful.it.anthropic.app;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The tool written the SDK's way: a class whose fields the SDK fills from the model's arguments, then
 * {@code get()}. A MONEY tool with a key header and no probe, against a payment service that
 * deduplicates on {@code Idempotency-Key}. The first charge of the process loses its answer when the
 * system property {@code lose} is set (its value: how long the answer is waited for, in ms).
 */
@JsonClassDescription("Charges the customer's card for an order")
public class ChargeCard implements java.util.function.Supplier<String> {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final AtomicBoolean LOST = new AtomicBoolean(System.getProperty("lose") == null);
    /** One entry per body that ran: {@code task@thread}. */
    static final List<String> BODIES = new CopyOnWriteArrayList<>();

    @JsonProperty("order_id")
    @JsonPropertyDescription("the order id")
    @IntentKey
    public String orderId;

    @JsonProperty("amount")
    @JsonPropertyDescription("the amount, in any wording")
    public String amount;

    @Override
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", keyHeader = "Idempotency-Key")
    public String get() {
        BODIES.add(Task.current().map(Task::id).orElse("none") + "@" + Thread.currentThread().getName());
        boolean lose = LOST.compareAndSet(false, true);
        String url = System.getProperty("ledger") + "/charge/" + orderId + (lose ? "?lose=1" : "");
        Duration wait = Duration.ofMillis(lose ? Long.getLong("lose") : 10_000);
        try {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(wait)
                    .POST(HttpRequest.BodyPublishers.ofString(amount)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("HTTP " + r.statusCode());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
