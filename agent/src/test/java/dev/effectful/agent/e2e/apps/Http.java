package dev.effectful.agent.e2e.apps;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The test applications' way to reach the ledger: the JDK client, as a plain application would. */
public final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Http() {
    }

    public static String ledger() {
        return System.getProperty("ledger");
    }

    public static HttpResponse<String> post(String path, String key, Duration timeout) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(ledger() + path, key)).timeout(timeout)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    public static HttpResponse<String> get(String path, String key) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(uri(ledger() + path, key)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** POST and insist on a 200, as a tool's client library would (it throws on anything else). */
    public static String effect(String verb, String key) throws IOException, InterruptedException {
        HttpResponse<String> r = post("/effect/" + verb, key, Duration.ofSeconds(10));
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode());
        }
        return r.body();
    }

    private static URI uri(String base, String key) {
        return URI.create(key == null ? base : base + "?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
    }
}
