package dev.effectful.it.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.concurrent.CountDownLatch;

/**
 * The same tools served over stdio: the client application starts this JVM as its subprocess (with the
 * agent) and talks to it through its standard input and output.
 */
public final class StdioServerApp {

    private StdioServerApp() {
    }

    public static void main(String[] args) throws Exception {
        McpServer.sync(new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
                .serverInfo("effectful-it-stdio", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(McpServerApp.specifications(new ServerTools()))
                .build();
        new CountDownLatch(1).await(); // until the client ends this process
    }
}
