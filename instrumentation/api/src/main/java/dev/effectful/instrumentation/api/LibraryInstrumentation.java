package dev.effectful.instrumentation.api;

import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.List;
import java.util.Set;

/**
 * One library's instrumentation (LangChain4j, Spring AI, the MCP SDK, an HTTP client), found with
 * {@link java.util.ServiceLoader} in the agent's isolated class loader. Modelled on OpenTelemetry's
 * {@code instrumentation/<library>}: each library has its own module, and the agent knows none of
 * them by name.
 *
 * <p>Start-up cost is the rule that shapes this interface: {@link #classes()} is a set of names the
 * agent's transformer looks a loaded class up in, and nothing else of the instrumentation runs (and
 * nothing of Byte Buddy loads) until one of those classes is actually loaded. An application without
 * the library pays one hash lookup per loaded class.
 *
 * <p>Advice is inlined into the library's own classes, so it may name only the library's types, the
 * JDK and {@code dev.effectful.agent.bridge} (on the bootstrap path). It must suppress every
 * throwable: a fault in an integration never breaks the application.
 */
public interface LibraryInstrumentation {

    /** A short name for logs and errors, such as {@code "langchain4j"}. */
    String library();

    /** Internal names ({@code a/b/C}) of the classes rewritten; a cheap constant, read at premain. */
    Set<String> classes();

    /**
     * The advice for one of {@link #classes()}, asked the first time that class loads. An empty list
     * leaves the class as it is (a version of the library this instrumentation does not know).
     */
    List<AsmVisitorWrapper> advice(String internalName);

    /**
     * The calls to insert at method entries of one of {@link #classes()}, asked the first time that class
     * loads, before {@link #advice}: a class with entry calls is woven with them alone, by the agent's small
     * weaver, and loads nothing of Byte Buddy. Default: none (the class gets its {@link #advice}).
     */
    default List<EntryCall> entryCalls(String internalName) {
        return List.of();
    }
}
