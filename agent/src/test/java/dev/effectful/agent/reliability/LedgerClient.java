package dev.effectful.agent.reliability;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The workload's side of the ledger protocol (see {@link LedgerProcess}); the JDK client, as an application would. */
final class LedgerClient {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private LedgerClient() {
    }

    /** Applies an effect; the ledger records which intent key asked for it. Throws on anything but 200. */
    static String effect(String verb, String ref, String intentKey, String mode, String idempotencyKey)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("/effect/" + verb, ref, "key", intentKey, "mode", mode))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.noBody());
        if (idempotencyKey != null) {
            b.header("Idempotency-Key", idempotencyKey);
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + " from POST /effect/" + verb);
        }
        return r.body();
    }

    /** A probe: the ledger's answer when the effect is there, null when it is not. */
    static String find(String verb, String ref) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri("/effect/" + verb, ref)).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + " from GET /effect/" + verb);
        }
        return r.body();
    }

    static String read(String verb, String ref) throws IOException, InterruptedException {
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri("/read/" + verb, ref)).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode() + " from GET /read/" + verb);
        }
        return r.body();
    }

    private static URI uri(String path, String ref, String... more) {
        StringBuilder s = new StringBuilder(System.getProperty("ledger")).append(path).append("?ref=").append(enc(ref));
        for (int i = 0; i + 1 < more.length; i += 2) {
            if (more[i + 1] != null) {
                s.append('&').append(more[i]).append('=').append(enc(more[i + 1]));
            }
        }
        return URI.create(s.toString());
    }

    private static String enc(String v) {
        return URLEncoder.encode(v, StandardCharsets.UTF_8);
    }
}
