package dev.effectful.instrumentation.micrometer;

import dev.effectful.runtime.events.LibrarySinkProvider;

/**
 * Names the Micrometer sink for the agent. It references no Micrometer type: it is loaded in the
 * agent's loader, which cannot see the application's Micrometer; {@link MicrometerSink} is defined
 * beside the application's copy instead.
 */
public final class MicrometerSinkProvider implements LibrarySinkProvider {

    @Override
    public String library() {
        return "micrometer";
    }

    @Override
    public String presenceClass() {
        return "io.micrometer.core.instrument.Metrics";
    }

    @Override
    public String sinkClass() {
        return "dev.effectful.instrumentation.micrometer.MicrometerSink";
    }
}
