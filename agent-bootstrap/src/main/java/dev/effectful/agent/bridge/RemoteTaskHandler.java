package dev.effectful.agent.bridge;

import java.util.function.BiFunction;

/**
 * A remote tool's handler (an MCP tool specification's call handler) that runs each call in the task
 * the request names, as {@link Frameworks#openRemoteTask} decides, and closes it when the handler
 * returns or throws. It lives on the bootstrap path because the application's library holds it.
 */
final class RemoteTaskHandler<A, B, R> implements BiFunction<A, B, R> {

    private final String library;
    private final BiFunction<A, B, R> handler;

    RemoteTaskHandler(String library, BiFunction<A, B, R> handler) {
        this.library = library;
        this.handler = handler;
    }

    @Override
    public R apply(A channel, B request) {
        Object token = Frameworks.openRemoteTask(library, channel, request);
        try {
            return handler.apply(channel, request);
        } finally {
            Frameworks.closeTask(token);
        }
    }

    @Override
    public String toString() {
        return handler.toString();
    }
}
