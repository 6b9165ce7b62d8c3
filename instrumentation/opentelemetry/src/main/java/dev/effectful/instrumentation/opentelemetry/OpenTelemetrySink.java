package dev.effectful.instrumentation.opentelemetry;

import dev.effectful.runtime.events.CallEvent;
import dev.effectful.runtime.events.CallTrace;
import dev.effectful.runtime.events.EventSink;
import dev.effectful.runtime.events.Step;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * Each guarded call as a span {@code execute_tool {verb}} (INTERNAL, child of the span current at
 * the call), current while the body runs so the body's own spans nest under it; and the metrics
 * {@code gen_ai.execute_tool.duration}, {@code effectful.calls} and {@code effectful.unresolved}.
 * Compiled against the OpenTelemetry API and defined in a loader under the application's, so it
 * uses the application's {@link GlobalOpenTelemetry} (and through it the OpenTelemetry Java agent's
 * SDK when that agent runs). Never the first to touch {@code GlobalOpenTelemetry.get()}: doing so
 * before the application registers its SDK would fix the global to a no-op.
 */
public final class OpenTelemetrySink implements EventSink {

    static final String SCOPE = "dev.effectful";

    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> TASK = AttributeKey.stringKey("effectful.task.id");
    static final AttributeKey<String> INTENT_KEY = AttributeKey.stringKey("effectful.intent_key");
    static final AttributeKey<String> KIND = AttributeKey.stringKey("effectful.kind");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("effectful.attempt");
    static final AttributeKey<String> REENTRY = AttributeKey.stringKey("effectful.reentry");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("effectful.outcome");
    static final AttributeKey<String> EFFECT = AttributeKey.stringKey("effectful.effect_applied");
    static final AttributeKey<Long> RETRY_AFTER = AttributeKey.longKey("effectful.retry_after_s");
    static final AttributeKey<Long> DEADLINE_LEFT = AttributeKey.longKey("effectful.deadline_left_s");
    static final AttributeKey<String> PROBE_RESULT = AttributeKey.stringKey("effectful.probe.result");
    static final String EXECUTE_TOOL = "execute_tool";

    private final LongSupplier unresolved;
    /** Null until the application's global is set (or known to be reached safely). */
    private volatile Instruments instruments;
    /** False when the application's API predates {@code GlobalOpenTelemetry.isSet()}. */
    private volatile boolean canAskIsSet = true;

    public OpenTelemetrySink(LongSupplier unresolved) {
        this.unresolved = unresolved;
    }

    @Override
    public boolean interested(Class<?> toolClass) {
        return instruments != null || globalReady();
    }

    /** True once the application (or the OpenTelemetry agent) has registered its global OpenTelemetry. */
    private boolean globalReady() {
        if (canAskIsSet) {
            try {
                if (!GlobalOpenTelemetry.isSet() && !JavaAgent.present()) {
                    return false;
                }
            } catch (NoSuchMethodError olderApi) {
                canAskIsSet = false; // an API before 1.57: it cannot tell, so the first call fixes the global
            }
        }
        synchronized (this) {
            if (instruments == null) {
                instruments = new Instruments(GlobalOpenTelemetry.get(), unresolved);
            }
        }
        return true;
    }

    @Override
    public void begin(CallTrace trace, int slot) {
        Span span = instruments.tracer.spanBuilder(EXECUTE_TOOL + " " + trace.verb()).setSpanKind(SpanKind.INTERNAL)
                .setParent(Context.current()).setAttribute(OPERATION, EXECUTE_TOOL).setAttribute(TOOL, trace.verb())
                .startSpan();
        trace.slot(slot, new Open(span));
    }

    @Override
    public void on(CallEvent e, int slot) {
        if (!(e.trace().slot(slot) instanceof Open open)) {
            return;
        }
        Span span = open.span;
        if (e.step() == Step.PROBE) {
            span.addEvent("effectful.probe", Attributes.of(PROBE_RESULT, e.probe(), ATTEMPT, (long) e.attempt()));
        }
        if (e.step() == Step.INTENT && open.scope == null) {
            // the body runs next on this thread: its own spans (HTTP clients...) nest under this one
            open.scope = span.makeCurrent();
        }
        if (!e.last()) {
            return;
        }
        e.trace().slot(slot, null);
        span.setAttribute(TASK, e.task());
        if (e.intentKey() != null) {
            span.setAttribute(INTENT_KEY, e.intentKey());
        }
        span.setAttribute(KIND, e.kind());
        if (e.attempt() > 0) {
            span.setAttribute(ATTEMPT, (long) e.attempt());
        }
        span.setAttribute(REENTRY, e.reentry().word());
        span.setAttribute(OUTCOME, e.outcome());
        span.setAttribute(EFFECT, e.effectApplied());
        if (e.retryAfterS() != null) {
            span.setAttribute(RETRY_AFTER, e.retryAfterS());
        }
        if (e.deadlineLeftS() != null) {
            span.setAttribute(DEADLINE_LEFT, e.deadlineLeftS());
        }
        if (e.failed()) {
            span.setAttribute(ERROR_TYPE, e.errorType());
            span.setStatus(StatusCode.ERROR);
        }
        close(open);
        instruments.record(e, System.nanoTime() - e.trace().startNanos());
    }

    @Override
    public void abandon(CallTrace trace, int slot) {
        if (trace.slot(slot) instanceof Open open) {
            trace.slot(slot, null);
            open.span.setAttribute(ERROR_TYPE, "effectful_internal_error");
            open.span.setStatus(StatusCode.ERROR);
            close(open);
        }
    }

    private static void close(Open open) {
        if (open.scope != null) {
            open.scope.close();
        }
        open.span.end();
    }

    /** The span of a call under way, and its scope while the body runs. */
    private static final class Open {
        final Span span;
        Scope scope;

        Open(Span span) {
            this.span = span;
        }
    }

    /** The tracer and meters, made once the application's global OpenTelemetry is there. */
    private static final class Instruments {
        final Tracer tracer;
        final DoubleHistogram duration;
        final LongCounter calls;

        Instruments(OpenTelemetry otel, LongSupplier unresolved) {
            String version = OpenTelemetrySink.class.getPackage() == null ? null
                    : OpenTelemetrySink.class.getPackage().getImplementationVersion();
            tracer = version == null ? otel.getTracer(SCOPE) : otel.getTracer(SCOPE, version);
            Meter meter = otel.getMeter(SCOPE);
            duration = meter.histogramBuilder("gen_ai.execute_tool.duration").setUnit("s")
                    .setDescription("Duration of guarded tool calls, from entry to answer")
                    .setExplicitBucketBoundariesAdvice(List.of(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0,
                            30.0, 60.0, 300.0))
                    .build();
            calls = meter.counterBuilder("effectful.calls").setUnit("{call}")
                    .setDescription("Guarded tool calls by tool, outcome and re-entry path").build();
            meter.gaugeBuilder("effectful.unresolved").ofLongs().setUnit("{intent}")
                    .setDescription("Intents whose outcome is unknown or not yet written (a person may have to resolve them)")
                    .buildWithCallback(m -> {
                        long n = unresolved.getAsLong();
                        if (n >= 0) {
                            m.record(n);
                        }
                    });
        }

        void record(CallEvent e, long nanos) {
            Attributes byOutcome = Attributes.of(TOOL, e.verb(), OUTCOME, e.outcome());
            duration.record(nanos / 1e9, byOutcome);
            calls.add(1, Attributes.of(TOOL, e.verb(), OUTCOME, e.outcome(), REENTRY, e.reentry().word()));
        }
    }
}
