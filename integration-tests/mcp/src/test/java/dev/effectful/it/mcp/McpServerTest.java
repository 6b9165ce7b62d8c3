package dev.effectful.it.mcp;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.support.LedgerForkTest;
import org.junit.jupiter.api.AfterEach;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The frame of the tests that run MCP server JVMs ({@link McpServerApp}) on loopback and call them from client
 * JVMs: the ledger the tools' effects land in ({@link LedgerForkTest}), and the servers a test started, killed
 * after it (before the ledger closes) unless the test killed them itself.
 */
abstract class McpServerTest extends LedgerForkTest {

    /** How long a forked JVM may take to start listening, or to run a client to its end. */
    static final Duration START = Duration.ofSeconds(90);

    private final List<ForkedApp> servers = new ArrayList<>();

    @AfterEach
    void stopServers() throws Exception {
        for (ForkedApp s : servers) {
            try {
                s.kill9();
            } catch (AssertionError | IOException already) {
                // killed by the test itself
            }
        }
    }

    /** Starts {@code server} (its logs under {@code tmp/logs}), to be killed after the test. */
    final ForkedApp started(ForkedApp server) throws IOException {
        server.start(tmp.resolve("logs"));
        servers.add(server);
        return server;
    }

    /** The URL of {@code server}'s streamable HTTP endpoint, once it listens. */
    static String listening(ForkedApp server) throws Exception {
        String line = server.awaitLine(l -> l.startsWith("RESULT port "), START);
        return "http://127.0.0.1:" + line.substring("RESULT port ".length()).trim();
    }
}
