package dev.effectful.it.mcp;

import dev.effectful.Task;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An MCP client whose host can ask its user: it declares the {@code elicitation} capability (unless ANSWER is
 * {@code none}) and answers every {@code elicitation/create} as its user would, with ANSWER: {@code accept} (note
 * "ok by me"), {@code decline} (note {@link #DECLINE_NOTE}) or {@code cancel}. In a task it calls
 * {@code refund_order} for order o-9 twice, the second time in other words (the model's rephrased retry).
 *
 * <p>Prints {@code RESULT first text}, {@code RESULT second text} (with {@code error:} in front when the server
 * answered isError), {@code RESULT asked N} (how many questions the server asked) and {@code RESULT message M}
 * for each question's message. Arguments: URL ANSWER TASK_ID BUDGET_MS.
 */
public final class McpElicitClientApp {

    static final String DECLINE_NOTE = "the customer was refunded by phone already";

    private McpElicitClientApp() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String answer = args[1];
        String taskId = args[2];
        Duration budget = Duration.ofMillis(Long.parseLong(args[3]));
        AtomicInteger asked = new AtomicInteger();
        List<String> messages = new java.util.concurrent.CopyOnWriteArrayList<>();
        var spec = McpClient.sync(HttpClientStreamableHttpTransport.builder(url).endpoint("/mcp").build())
                .requestTimeout(Duration.ofSeconds(120));
        if (!answer.equals("none")) {
            spec.capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                    .elicitation(request -> {
                        asked.incrementAndGet();
                        messages.add(request.message());
                        return switch (answer) {
                            case "accept" -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT,
                                    Map.of("note", "ok by me"));
                            case "decline" -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE,
                                    Map.of("note", DECLINE_NOTE));
                            default -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.CANCEL, null);
                        };
                    });
        }
        try (McpSyncClient client = spec.build()) {
            client.initialize();
            try (Task task = Task.open(taskId, "alice", budget)) {
                print("first", client.callTool(new McpSchema.CallToolRequest("refund_order",
                        Map.of("orderId", "o-9", "reason", "damaged in transit", "cardToken", RefundTools.CARD), null)));
                print("second", client.callTool(new McpSchema.CallToolRequest("refund_order",
                        Map.of("orderId", "o-9", "reason", "please refund o-9, it arrived broken", "cardToken",
                                RefundTools.CARD), null)));
            }
        }
        System.out.println("RESULT asked " + asked.get());
        for (String m : messages) {
            System.out.println("RESULT message " + m.replace('\n', ' '));
        }
        System.out.flush();
    }

    private static void print(String name, McpSchema.CallToolResult result) {
        List<McpSchema.Content> content = result.content();
        String text = content.isEmpty() ? "" : ((McpSchema.TextContent) content.get(0)).text();
        System.out.println("RESULT " + name + " " + (Boolean.TRUE.equals(result.isError()) ? "error:" : "")
                + text.replace('\n', ' '));
        System.out.flush();
    }
}
