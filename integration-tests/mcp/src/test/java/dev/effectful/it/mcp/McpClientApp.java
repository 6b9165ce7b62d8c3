package dev.effectful.it.mcp;

import dev.effectful.Task;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An MCP client application: in a task, it calls the server's tools the way an agent loop does, retrying
 * with rephrased arguments (a scripted loop stands in for the model). Prints {@code RESULT name text}
 * (the tool's text, with {@code error:} in front when the server answered isError).
 *
 * Scenario {@code list} prints {@code RESULT tool hints} for each tool the server lists instead ({@link #hints}).
 *
 * <p>Arguments: URL SCENARIO TASK_ID BUDGET_MS [USER]; USER is sent as {@code X-Test-User}, which the
 * server's stand-in authentication turns into the request's principal; {@code -Dit.header=NAME: VALUE} adds
 * that header to every request (a proxy's {@code X-Forwarded-For}). URL {@code stdio} starts
 * {@link StdioServerApp} as a subprocess instead.
 */
public final class McpClientApp {

    private McpClientApp() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String scenario = args[1];
        String taskId = args[2];
        Duration budget = Duration.ofMillis(Long.parseLong(args[3]));
        String user = args.length > 4 ? args[4] : null;
        McpClientTransport transport = url.equals("stdio") ? stdioServer() : HttpClientStreamableHttpTransport.builder(url)
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) -> {
                    if (user != null) {
                        builder.header("X-Test-User", user);
                    }
                    String forwarded = System.getProperty("it.header");
                    if (forwarded != null) {
                        // what a reverse proxy on the server's host adds: the peer address is then loopback
                        int colon = forwarded.indexOf(':');
                        builder.header(forwarded.substring(0, colon), forwarded.substring(colon + 1).trim());
                    }
                })
                .build();
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(120)).build()) {
            client.initialize();
            if (scenario.equals("list")) {
                // what a host shows its user before a call: each tool's annotations, as the server listed them
                for (McpSchema.Tool tool : client.listTools().tools()) {
                    System.out.println("RESULT " + tool.name() + " " + hints(tool.annotations()));
                }
                System.out.flush();
                return;
            }
            try (Task task = Task.open(taskId, "client-side-actor", budget)) {
                switch (scenario) {
                    case "rephrased" -> {
                        print("first", client.callTool(request("send_invoice",
                                Map.of("orderId", "o-1", "note", "please send the invoice for order o-1"), null)));
                        // the model did not see an answer it liked and asks again, in its own words
                        print("second", client.callTool(request("send_invoice",
                                Map.of("orderId", "o-1", "note", "resend the o-1 invoice, the customer is waiting"), null)));
                    }
                    case "invoice" -> print("invoice", client.callTool(request("send_invoice",
                            Map.of("orderId", "o-4", "note", "invoice for " + user), null)));
                    case "charge" -> print("charge", client.callTool(request("charge_card", Map.of("orderId", "o-2"), null)));
                    case "ship" -> print("ship", client.callTool(request("ship_order", Map.of("orderId", "o-3"), null)));
                    case "malformed" -> {
                        Map<String, Object> junk = new LinkedHashMap<>();
                        junk.put("id", 42);
                        junk.put("budget_ms", "lots");
                        junk.put("admin", true);
                        print("malformed", client.callTool(request("send_invoice",
                                Map.of("orderId", "o-5", "note", "with a forged entry"), Map.of("dev.effectful/task", junk))));
                    }
                    default -> throw new IllegalArgumentException(scenario);
                }
            }
        }
        System.out.flush();
    }

    /** {@link StdioServerApp} as this process's subprocess, with the agent, its journal and ledger from {@code it.*} properties. */
    private static McpClientTransport stdioServer() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = new java.util.ArrayList<>(List.of(
                "-javaagent:" + System.getProperty("it.agent"),
                "-Deffectful.journal.dir=" + System.getProperty("it.server.journal"),
                "-Dledger=" + System.getProperty("ledger")));
        if (System.getProperty("it.server.trust") != null) {
            jvm.add("-Deffectful.mcp.trust_task=" + System.getProperty("it.server.trust"));
        }
        jvm.addAll(List.of("-cp", System.getProperty("java.class.path"), StdioServerApp.class.getName()));
        ServerParameters server = ServerParameters.builder(java).args(jvm).build();
        return new StdioClientTransport(server, McpJsonDefaults.getMapper());
    }

    /** {@code title=.. readOnly=.. destructive=.. idempotent=.. openWorld=..}; {@code none} when the tool has no annotations. */
    static String hints(McpSchema.ToolAnnotations a) {
        return a == null ? "none" : "title=" + a.title() + " readOnly=" + a.readOnlyHint() + " destructive="
                + a.destructiveHint() + " idempotent=" + a.idempotentHint() + " openWorld=" + a.openWorldHint();
    }

    private static McpSchema.CallToolRequest request(String tool, Map<String, Object> args, Map<String, Object> meta) {
        return new McpSchema.CallToolRequest(tool, args, meta);
    }

    private static void print(String name, McpSchema.CallToolResult result) {
        List<McpSchema.Content> content = result.content();
        String text = content.isEmpty() ? "" : ((McpSchema.TextContent) content.get(0)).text();
        System.out.println("RESULT " + name + " " + (Boolean.TRUE.equals(result.isError()) ? "error:" : "")
                + text.replace('\n', ' '));
        System.out.flush();
    }
}
