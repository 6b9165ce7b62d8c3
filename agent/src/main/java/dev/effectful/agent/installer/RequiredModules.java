package dev.effectful.agent.installer;

import java.util.List;
import java.util.Optional;

/**
 * JDK modules the agent's runtime links against. A class-path application gets every system
 * module in its boot layer; an application launched as a named module ({@code -m app/Main}) gets
 * only what its modules require, and the agent cannot add modules to a running boot layer.
 */
final class RequiredModules {

    /** sun.misc for Chronicle; java.net.http for the classification of JDK HTTP client failures. */
    static final List<String> NEEDED = List.of("jdk.unsupported", "java.net.http");

    private RequiredModules() {
    }

    /** Empty when all are there; otherwise the reason, naming the flag that fixes it. */
    static Optional<String> missing() {
        List<String> absent = NEEDED.stream().filter(m -> ModuleLayer.boot().findModule(m).isEmpty()).toList();
        if (absent.isEmpty()) {
            return Optional.empty();
        }
        String list = String.join(",", absent);
        return Optional.of("the JVM was started without module(s) " + list + " that the effectful agent needs"
                + " (a named-module application resolves only what it requires): add --add-modules " + list);
    }
}
