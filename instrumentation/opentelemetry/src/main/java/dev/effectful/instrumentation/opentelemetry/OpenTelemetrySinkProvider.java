package dev.effectful.instrumentation.opentelemetry;

import dev.effectful.runtime.events.LibrarySinkProvider;

/**
 * Names the OpenTelemetry sink for the agent. It references no OpenTelemetry type: it is loaded in
 * the agent's loader, which cannot see the application's API; {@link OpenTelemetrySink} is defined
 * beside the application's copy of the API instead.
 */
public final class OpenTelemetrySinkProvider implements LibrarySinkProvider {

    @Override
    public String library() {
        return "opentelemetry";
    }

    @Override
    public String presenceClass() {
        return "io.opentelemetry.api.GlobalOpenTelemetry";
    }

    @Override
    public String sinkClass() {
        return "dev.effectful.instrumentation.opentelemetry.OpenTelemetrySink";
    }
}
