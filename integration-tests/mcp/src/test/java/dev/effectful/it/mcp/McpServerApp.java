package dev.effectful.it.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * An MCP server as an application writes one: the SDK's streamable HTTP servlet transport in an
 * embedded Tomcat on loopback, synchronous tool specifications whose handlers call the guarded
 * {@link ServerTools}. A filter stands in for the application's authentication: a request with
 * {@code X-Test-User: NAME} has the user principal NAME. Prints {@code RESULT port N} when listening.
 * {@code -Dit.tools=hints} serves {@link HintTools} instead, {@code -Dit.tools=approval} {@link RefundTools}.
 */
public final class McpServerApp {

    private McpServerApp() {
    }

    public static void main(String[] args) throws Exception {
        var transport = HttpServletStreamableServerTransportProvider.builder().mcpEndpoint("/mcp").build();
        McpServer.sync(transport)
                .serverInfo("effectful-it", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools("hints".equals(System.getProperty("it.tools")) ? HintTools.specifications(new HintTools())
                        : "approval".equals(System.getProperty("it.tools")) ? refundSpecifications(new RefundTools())
                        : specifications(new ServerTools()))
                .build();

        Path base = Files.createTempDirectory("tomcat");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", base.toString());
        Wrapper servlet = context.createWrapper();
        servlet.setName("mcp");
        servlet.setServlet(transport);
        servlet.setAsyncSupported(true);
        servlet.setLoadOnStartup(1);
        context.addChild(servlet);
        context.addServletMappingDecoded("/*", "mcp");
        FilterDef auth = new FilterDef();
        auth.setFilter(new HeaderAuthentication());
        auth.setFilterName("auth");
        auth.setAsyncSupported("true");
        context.addFilterDef(auth);
        FilterMap map = new FilterMap();
        map.setFilterName("auth");
        map.addURLPattern("/*");
        context.addFilterMap(map);
        tomcat.start();
        System.out.println("RESULT port " + tomcat.getConnector().getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }

    /** The tools, as both transports serve them. */
    static List<McpServerFeatures.SyncToolSpecification> specifications(ServerTools tools) {
        return List.of(tool("send_invoice", "{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"},\"note\":{\"type\":\"string\"}}}",
                        a -> tools.sendInvoice((String) a.get("orderId"), (String) a.get("note"))),
                tool("charge_card", "{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"}}}",
                        a -> tools.chargeCard((String) a.get("orderId"))),
                tool("ship_order", "{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"}}}",
                        a -> tools.shipOrder((String) a.get("orderId"))));
    }

    /** {@link RefundTools}: one tool that needs a person's approval. */
    static List<McpServerFeatures.SyncToolSpecification> refundSpecifications(RefundTools tools) {
        return List.of(tool("refund_order", "{\"type\":\"object\",\"properties\":{\"orderId\":{\"type\":\"string\"},"
                        + "\"reason\":{\"type\":\"string\"},\"cardToken\":{\"type\":\"string\"}}}",
                a -> tools.refund((String) a.get("orderId"), (String) a.get("reason"), (String) a.get("cardToken"))));
    }

    interface Body {
        String run(Map<String, Object> arguments) throws Exception;
    }

    private static McpServerFeatures.SyncToolSpecification tool(String name, String schema, Body body) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(name)
                .inputSchema(McpJsonDefaults.getMapper(), schema).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> answer(() -> body.run(request.arguments())))
                .build();
    }

    private static McpSchema.CallToolResult answer(Callable<String> call) {
        try {
            return McpSchema.CallToolResult.builder().addTextContent(call.call()).isError(false).build();
        } catch (Exception e) {
            return McpSchema.CallToolResult.builder().addTextContent(String.valueOf(e.getMessage())).isError(true).build();
        }
    }

    /** The application's authentication, reduced to a header: its user becomes the request's principal. */
    static final class HeaderAuthentication implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            HttpServletRequest http = (HttpServletRequest) request;
            String user = http.getHeader("X-Test-User");
            if (user == null) {
                chain.doFilter(request, response);
                return;
            }
            Principal principal = () -> user;
            chain.doFilter(new HttpServletRequestWrapper(http) {
                @Override
                public Principal getUserPrincipal() {
                    return principal;
                }

                @Override
                public String getRemoteUser() {
                    return user;
                }
            }, response);
        }
    }
}
