package dev.effectful.instrumentation.mcp;

import dev.effectful.instrumentation.api.LibraryInstrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * The MCP Java SDK ({@code io.modelcontextprotocol.sdk:mcp} 1.x and 2.x): the task travels with
 * {@code tools/call}, and {@code tools/list} carries each guarded tool's hints from its declared kind.
 * <ul>
 *   <li>Client: {@code McpAsyncClient.callTool(CallToolRequest)}, which the synchronous client calls on
 *       the caller's thread, adds the current task's entry to the request's {@code _meta}
 *       ({@link CallToolAdvice}).</li>
 *   <li>Server: each tool specification's call handler is wrapped when the specification is built
 *       ({@link ToolHandlerAdvice}); the wrapper binds the request's task around the handler. The
 *       specification's tool is replaced by the same tool with the hints of its kind ({@link ToolHintsAdvice}).</li>
 *   <li>Who calls: the stdio transport's inbound loop and the servlet transports' {@code doPost}
 *       announce the caller (stdio; the principal and peer address), the exchange made for the request
 *       is tagged with it ({@link ExchangeAdvice}).</li>
 * </ul>
 * Every matcher names a method by its shape; a version of the SDK where a shape is gone loads that
 * class unchanged (the task then does not travel through it, and each call is a task of its own).
 */
public final class McpInstrumentation implements LibraryInstrumentation {

    static final String LIBRARY = "mcp";
    private static final String CLIENT = "io/modelcontextprotocol/client/McpAsyncClient";
    private static final String REQUEST = "io.modelcontextprotocol.spec.McpSchema$CallToolRequest";
    private static final String TOOL = "io.modelcontextprotocol.spec.McpSchema$Tool";
    private static final List<String> SPECIFICATIONS = List.of(
            "io/modelcontextprotocol/server/McpServerFeatures$SyncToolSpecification",
            "io/modelcontextprotocol/server/McpServerFeatures$AsyncToolSpecification",
            "io/modelcontextprotocol/server/McpStatelessServerFeatures$SyncToolSpecification",
            "io/modelcontextprotocol/server/McpStatelessServerFeatures$AsyncToolSpecification");
    private static final String ASYNC_EXCHANGE = "io/modelcontextprotocol/server/McpAsyncServerExchange";
    private static final String SYNC_EXCHANGE = "io/modelcontextprotocol/server/McpSyncServerExchange";
    private static final List<String> SERVLETS = List.of(
            "io/modelcontextprotocol/server/transport/HttpServletStreamableServerTransportProvider",
            "io/modelcontextprotocol/server/transport/HttpServletSseServerTransportProvider");
    private static final String STDIO = "io/modelcontextprotocol/server/transport/StdioServerTransportProvider$StdioMcpSessionTransport";

    private static final Map<String, Kind> KINDS = kinds();

    private enum Kind { CLIENT, SPECIFICATION, ASYNC_EXCHANGE, SYNC_EXCHANGE, SERVLET, STDIO }

    @Override
    public String library() {
        return LIBRARY;
    }

    @Override
    public Set<String> classes() {
        return KINDS.keySet();
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        Kind kind = KINDS.get(internalName);
        if (kind == null) {
            return List.of();
        }
        return switch (kind) {
            case CLIENT -> List.of(Advice.to(CallToolAdvice.class)
                    .on(named("callTool").and(takesArguments(1)).and(takesArgument(0, named(REQUEST)))));
            // two pieces of advice on one constructor: the handler runs in the caller's task, the tool is hinted
            case SPECIFICATION -> List.of(Advice.to(ToolHandlerAdvice.class).on(specificationConstructor()),
                    Advice.to(ToolHintsAdvice.class).on(specificationConstructor().and(takesArgument(0, named(TOOL)))));
            case ASYNC_EXCHANGE -> List.of(Advice.to(ExchangeAdvice.Async.class).on(isConstructor()));
            case SYNC_EXCHANGE -> List.of(Advice.to(ExchangeAdvice.Sync.class)
                    .on(isConstructor().and(takesArguments(1))
                            .and(takesArgument(0, named("io.modelcontextprotocol.server.McpAsyncServerExchange")))));
            case SERVLET -> List.of(Advice.to(ServletCallerAdvice.class)
                    .on(named("doPost").and(takesArguments(2))
                            .and(takesArgument(0, named("jakarta.servlet.http.HttpServletRequest")))));
            case STDIO -> List.of(new SyntheticMethods(Advice.to(StdioCallerAdvice.class)
                    .on(nameStartsWith("lambda$startInboundProcessing$").and(takesArguments(0)))));
        };
    }

    /**
     * Built when a specification class is woven, never as this class loads: the agent loads every
     * instrumentation at start, and a matcher in a static field would load Byte Buddy's description
     * classes in every application, MCP or not (KeyHeaderIT and the start-up figures count them).
     */
    private static ElementMatcher.Junction<MethodDescription> specificationConstructor() {
        return isConstructor().and(takesArguments(2)).and(takesArgument(1, BiFunction.class));
    }

    private static Map<String, Kind> kinds() {
        Map<String, Kind> m = new java.util.HashMap<>();
        m.put(CLIENT, Kind.CLIENT);
        SPECIFICATIONS.forEach(s -> m.put(s, Kind.SPECIFICATION));
        m.put(ASYNC_EXCHANGE, Kind.ASYNC_EXCHANGE);
        m.put(SYNC_EXCHANGE, Kind.SYNC_EXCHANGE);
        SERVLETS.forEach(s -> m.put(s, Kind.SERVLET));
        m.put(STDIO, Kind.STDIO);
        return Map.copyOf(m);
    }
}
