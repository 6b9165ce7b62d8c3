package dev.effectful.agent.fleet;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real PostgreSQL server for a test class, registered as a static {@code @RegisterExtension} field:
 * started (fsync off, loopback only) before the class's first test, closed after its last.
 */
final class SharedPostgres implements BeforeAllCallback, AfterAllCallback {

    private PostgresServer server;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = PostgresServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** The running server. */
    PostgresServer server() {
        if (server == null) {
            throw new IllegalStateException("no server: register SharedPostgres as a static @RegisterExtension field");
        }
        return server;
    }
}
