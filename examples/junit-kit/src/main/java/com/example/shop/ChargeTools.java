package com.example.shop;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** The shop's payment tool, as an LLM agent calls it. */
public class ChargeTools {

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI payments;

    public ChargeTools(URI payments) {
        this.payments = payments;
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge", probe = "findCharge", check = "checkCharge")
    public String charge(@IntentKey String orderId, long cents, String description)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(payments.resolve("charges?order=" + enc(orderId)
                        + "&cents=" + cents)).POST(HttpRequest.BodyPublishers.ofString(description)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 429) {
            throw new ToolOutcomeException(Outcome.<String>retryable("payments busy (429)")
                    .withRetryAfterS(Long.parseLong(r.headers().firstValue("Retry-After").orElse("1"))));
        }
        if (r.statusCode() >= 400) {
            throw new IllegalArgumentException("payments refused: " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** Looks the charge of an order up: the effect of an earlier attempt, or null. */
    public String findCharge(String orderId, long cents, String description) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(payments.resolve("charges?order=" + enc(orderId)))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? r.body() : null;
    }

    /** The payment service answers 200 with {"status":"failed"} when a card is declined. */
    void checkCharge(String answer) {
        if (answer.contains("\"failed\"")) {
            throw new IllegalArgumentException("charge declined: " + answer);
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
