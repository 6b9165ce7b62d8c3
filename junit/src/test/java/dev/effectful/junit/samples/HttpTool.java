package dev.effectful.junit.samples;

import dev.effectful.Outcome;
import dev.effectful.ToolOutcomeException;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/** Plumbing the sample tools share: JDK HttpClient calls to the receiver, nothing Effectful decides. */
public abstract class HttpTool {

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI base;

    protected HttpTool(URI base) {
        this.base = base;
    }

    protected HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    protected HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** What a careful tool does with an answer: 429 with its Retry-After, other failures as exceptions. */
    protected static String bodyOf(HttpResponse<String> r) {
        if (r.statusCode() == 429) {
            long seconds = Long.parseLong(r.headers().firstValue("Retry-After").orElse("1"));
            throw new ToolOutcomeException(Outcome.<String>retryable("429 from " + r.request().uri().getPath())
                    .withRetryAfterS(seconds));
        }
        if (r.statusCode() >= 400) {
            throw new IllegalArgumentException(r.statusCode() + " from " + r.request().uri().getPath() + ": " + r.body());
        }
        return r.body();
    }

    /** A result check's body: a 200 whose body says error is a failure, {@code who} + ": " + the body. */
    protected static void refuseErrors(String answer, String who) {
        if (answer.contains("\"error\"")) {
            throw new IllegalArgumentException(who + ": " + answer);
        }
    }

    protected static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
