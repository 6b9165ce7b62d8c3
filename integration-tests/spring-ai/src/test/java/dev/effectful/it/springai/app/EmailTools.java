package dev.effectful.it.springai.app;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A tool as a Spring AI application writes it: Spring's {@code @Tool} for the model, Effectful's
 * {@code @EffectfulTool} for the agent. The mail service is the test's loopback ledger, keyed by the
 * recipient; it applies the send and then never answers, so the tool loses its answer after
 * {@code answer.timeout.ms} (or, with a long timeout, hangs until the test kills the JVM).
 */
public class EmailTools {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The task each body and probe saw, in order: what the framework made current. */
    public static final List<String> TASKS_SEEN = new CopyOnWriteArrayList<>();

    /** How many times the body ran in this JVM. */
    public static final List<String> BODIES = new CopyOnWriteArrayList<>();

    @Tool(name = "send_email", description = "Sends an email")
    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail")
    public String sendEmail(@ToolParam(description = "recipient address") @IntentKey String to,
                            @ToolParam(description = "subject line") String subject) throws IOException, InterruptedException {
        TASKS_SEEN.add(currentTask());
        BODIES.add(subject);
        long timeout = Long.getLong("answer.timeout.ms", 1000);
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri("/apply-then-hang/send_email", to))
                .timeout(Duration.ofMillis(timeout)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    /** Asks the mail service whether a mail to {@code to} went out: a measurement, not a guess. */
    public String findEmail(String to, String subject) throws IOException, InterruptedException {
        TASKS_SEEN.add(currentTask());
        HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(uri("/effect/send_email", to))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 ? "already sent to " + to : null;
    }

    private static String currentTask() {
        return Task.current().map(Task::id).orElse("(none)");
    }

    private static URI uri(String path, String key) {
        return URI.create(System.getProperty("ledger") + path + "?key=" + URLEncoder.encode(key, StandardCharsets.UTF_8));
    }
}
