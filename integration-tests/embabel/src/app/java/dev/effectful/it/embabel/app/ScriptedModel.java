package dev.effectful.it.embabel.app;

import com.embabel.agent.api.tool.Tool;
import com.embabel.agent.core.Usage;
import com.embabel.agent.spi.loop.LlmMessageResponse;
import com.embabel.agent.spi.loop.LlmMessageSender;
import com.embabel.chat.AssistantMessage;
import com.embabel.chat.AssistantMessageWithToolCalls;
import com.embabel.chat.Message;
import com.embabel.chat.ToolCall;
import com.embabel.chat.ToolResultMessage;
import com.embabel.chat.UserMessage;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model on loopback, played offline with the habit that makes real models dangerous: a charge whose
 * answer failed is issued again at once, same order, the amount worded differently. The conversation goes
 * to it over HTTP as lines ({@code user: ...}, {@code tool charge_card: ...}); it answers {@code call
 * charge_card o-7 AMOUNT} or {@code say TEXT}. It reads only what it is sent, so it behaves the same for a
 * restarted process. {@link #sender()} is the Embabel side: an {@link LlmMessageSender}, the one interface
 * Embabel's tool loop asks a model through.
 */
public final class ScriptedModel implements AutoCloseable {

    private static final String[] AMOUNTS = {"89 dollars", "$89.00", "8900 cents", "USD 89.00", "eighty-nine dollars"};

    private final HttpServer server;
    private final int phrasing;
    private final AtomicInteger calls = new AtomicInteger();
    private final HttpClient client = HttpClient.newHttpClient();

    public ScriptedModel(int phrasing) throws IOException {
        this.phrasing = phrasing;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                String answer = answer(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                byte[] body = answer.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        });
        server.start();
    }

    /** The script: charge, charge again reworded after a failure, then report. */
    private String answer(String conversation) {
        List<String> lines = conversation.lines().toList();
        String last = lines.get(lines.size() - 1);
        long failures = lines.stream().filter(l -> l.startsWith("tool charge_card:") && !l.contains("charge:o-7")).count();
        if (last.startsWith("user:")) {
            return "call charge_card o-7 " + AMOUNTS[phrasing % AMOUNTS.length];
        }
        if (last.startsWith("tool charge_card:") && !last.contains("charge:o-7")) {
            return "call charge_card o-7 " + AMOUNTS[(int) (phrasing + failures) % AMOUNTS.length];
        }
        return "say charge o-7: " + last.substring(last.indexOf(':') + 1).strip();
    }

    /** Embabel's side: each model call is one HTTP round trip to the script. */
    public LlmMessageSender sender() {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        return (List<? extends Message> messages, List<? extends Tool> tools) -> {
            StringBuilder conversation = new StringBuilder();
            for (Message m : messages) {
                String text = m.getContent() == null ? "" : m.getContent().replace('\n', ' ');
                if (m instanceof UserMessage) {
                    conversation.append("user: ").append(text).append('\n');
                } else if (m instanceof ToolResultMessage r) {
                    conversation.append("tool ").append(r.getToolName()).append(": ").append(text).append('\n');
                }
            }
            String answer;
            try {
                answer = client.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(
                        conversation.toString())).build(), HttpResponse.BodyHandlers.ofString()).body();
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("the scripted model did not answer", e);
            }
            Usage usage = new Usage(1, 1, null);
            if (answer.startsWith("call ")) {
                String[] p = answer.split(" ", 4);
                String args = "{\"orderId\":\"" + p[2] + "\",\"amount\":\"" + p[3] + "\"}";
                ToolCall call = new ToolCall("call-" + calls.incrementAndGet(), p[1], args);
                return new LlmMessageResponse(new AssistantMessageWithToolCalls("", List.of(call), null, Instant.now(),
                        Map.of()), "", usage);
            }
            String text = answer.substring("say ".length());
            return new LlmMessageResponse(new AssistantMessage(text), text, usage);
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
