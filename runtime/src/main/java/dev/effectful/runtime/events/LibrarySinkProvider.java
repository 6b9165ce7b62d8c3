package dev.effectful.runtime.events;

/**
 * A sink that shows the calls through a library the application itself has (OpenTelemetry,
 * Micrometer), found by {@link java.util.ServiceLoader} in the agent's loader. The provider names
 * classes only: the agent's loader cannot see the application's copy of the library, so the sink
 * class (compiled against the library) is defined per application loader by {@link LibrarySinks}.
 */
public interface LibrarySinkProvider {

    /** The library's short name, for messages ("opentelemetry"). */
    String library();

    /** A class whose presence in the tool's class loader means the application has the library. */
    String presenceClass();

    /**
     * The sink: implements {@link EventSink}, with a public constructor taking a
     * {@link java.util.function.LongSupplier} (the intents waiting for a person, for a gauge).
     * Every class of its package is defined beside it, where the application's library is visible.
     */
    String sinkClass();
}
