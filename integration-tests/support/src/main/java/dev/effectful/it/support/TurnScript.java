package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.effectful.it.support.ScriptedModel.JSON;

/**
 * A model scripted by turn, for the APIs whose client may send only what is new (a runner, a
 * server-side conversation), so the turn is counted here rather than read from the request. Each
 * process holds one conversation: first the model asks to charge order {@code o-7}; then (the first
 * answer was lost) it asks again in other words; then it answers in text. With {@code rateLimitOnce},
 * the second turn's first request gets a 429 with {@code retry-after-ms}, so the SDK retries it. A
 * subclass writes only its API's JSON.
 */
public abstract class TurnScript implements WireFormat {

    /** The text of the last turn. */
    public static final String PAID = "The order is paid.";

    private final AtomicBoolean rateLimit;
    /** Answers given (429s not counted): the turn of the one conversation each process has. */
    private final AtomicInteger served = new AtomicInteger();
    private final AtomicInteger rateLimited = new AtomicInteger();

    /** @param rateLimitOnce whether the second turn's first request is refused with a 429 */
    protected TurnScript(boolean rateLimitOnce) {
        this.rateLimit = new AtomicBoolean(rateLimitOnce);
    }

    /** The 429s given, for the application's report. */
    public int rateLimited() {
        return rateLimited.get();
    }

    // synchronized: a turn is read then counted, and one conversation's turns come one at a time
    @Override
    public final synchronized Reply answer(String path, JsonNode request) throws IOException {
        int turn = served.get();
        if (turn == 1 && rateLimit.compareAndSet(true, false)) {
            rateLimited.incrementAndGet();
            return Reply.of(429, rateLimitBody(), Map.of("retry-after-ms", "50"));
        }
        int n = served.incrementAndGet();
        ObjectNode arguments = JSON.createObjectNode().put("order_id", "o-7")
                .put("amount", turn == 0 ? "89 dollars" : "USD 89 (retrying the charge)");
        ObjectNode reply = turn < 2 ? toolCall(n, request, toolName(request), arguments) : text(n, request, PAID);
        return Reply.ok(JSON.writeValueAsBytes(reply));
    }

    /** The API's error body for a rate limit. */
    protected abstract String rateLimitBody();

    /** The name of the tool the request offers first ({@code charge_card} when it offers none). */
    private static String toolName(JsonNode request) {
        return request.path("tools").path(0).path("name").asText("charge_card");
    }

    /** The {@code n}th answer: a call of {@code tool} with {@code arguments}. */
    protected abstract ObjectNode toolCall(int n, JsonNode request, String tool, ObjectNode arguments) throws IOException;

    /** The {@code n}th answer: the turn ends with {@code text}. */
    protected abstract ObjectNode text(int n, JsonNode request, String text);
}
