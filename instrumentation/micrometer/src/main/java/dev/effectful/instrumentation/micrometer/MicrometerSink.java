package dev.effectful.instrumentation.micrometer;

import dev.effectful.runtime.events.CallEvent;
import dev.effectful.runtime.events.EventSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The same meters as the OpenTelemetry sink, in the application's {@link Metrics#globalRegistry}:
 * timer {@code gen_ai.execute_tool.duration} (tool, outcome), counter {@code effectful.calls}
 * (tool, outcome, re-entry path) and gauge {@code effectful.unresolved}. Interested only while
 * some registry is in the global composite, so an idle Micrometer costs one check per call.
 */
public final class MicrometerSink implements EventSink {

    private final MeterRegistry registry = Metrics.globalRegistry;

    public MicrometerSink(LongSupplier unresolved) {
        // the composite hands the gauge to registries added later, so registering it now is enough
        Gauge.builder("effectful.unresolved", unresolved, s -> {
                    long n = s.getAsLong();
                    return n < 0 ? Double.NaN : n;
                }).strongReference(true).baseUnit("intents")
                .description("Intents whose outcome is unknown or not yet written (a person may have to resolve them)")
                .register(registry);
    }

    @Override
    public boolean interested(Class<?> toolClass) {
        return !Metrics.globalRegistry.getRegistries().isEmpty();
    }

    @Override
    public void on(CallEvent e, int slot) {
        if (!e.last()) {
            return;
        }
        Timer.builder("gen_ai.execute_tool.duration").description("Duration of guarded tool calls, from entry to answer")
                .tag("gen_ai.tool.name", e.verb()).tag("effectful.outcome", e.outcome()).register(registry)
                .record(System.nanoTime() - e.trace().startNanos(), TimeUnit.NANOSECONDS);
        Counter.builder("effectful.calls").description("Guarded tool calls by tool, outcome and re-entry path")
                .tag("gen_ai.tool.name", e.verb()).tag("effectful.outcome", e.outcome())
                .tag("effectful.reentry", e.reentry().word()).register(registry).increment();
    }
}
