package dev.effectful.it.events.apps;

import dev.effectful.Task;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

import java.nio.file.Path;
import java.time.Duration;

/**
 * An application with the OpenTelemetry SDK, in-memory exporters, registered as the global. Phase
 * {@code first}: under its own span, a new call, its dedup, an unknown outcome and its hold, a
 * refusal; dumps spans and metrics; then the crash act (a shipment that hangs in its body after
 * landing, killed by the test). Phase {@code second}: the same shipment again, answered by its probe.
 */
public final class OtelApp {

    private OtelApp() {
    }

    public static void main(String[] args) throws Exception {
        String phase = args[0];
        Path marks = Path.of(args[1]);
        InMemorySpanExporter spans = InMemorySpanExporter.create();
        InMemoryMetricReader metrics = InMemoryMetricReader.create();
        OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
                .buildAndRegisterGlobal();
        Tracer tracer = GlobalOpenTelemetry.getTracer("demo-agent-loop");
        ObservedTools tools = new ObservedTools(marks,
                what -> tracer.spanBuilder(what).startSpan().end()); // e.g. an HTTP client's span
        String secret = ObservedTools.SECRET;
        if (phase.equals("first")) {
            Span run = tracer.spanBuilder("agent-run").startSpan();
            System.out.println("RESULT parent " + run.getSpanContext().getSpanId());
            try (Scope s = run.makeCurrent(); Task t = Task.open("otel-task", Duration.ofSeconds(60))) {
                print("new", () -> tools.sendEmail("ord-1", secret, "Hello"));
                print("dedup", () -> tools.sendEmail("ord-1", secret, "Hello again"));
                print("unknown", () -> tools.notifyCustomer("ann", secret));
                print("held", () -> tools.notifyCustomer("ann", secret));
                print("refused", () -> tools.charge("acct-9", secret));
            } finally {
                run.end();
            }
            Dump.spans(spans.getFinishedSpanItems());
            Dump.metrics(metrics.collectAllMetrics());
            System.out.println("PHASE first done");
            Span crash = tracer.spanBuilder("agent-run (crash act)").startSpan();
            try (Scope s = crash.makeCurrent(); Task t = Task.open("otel-crash", Duration.ofSeconds(120))) {
                tools.shipOrder("ord-7", secret); // hangs after landing: the test kills this JVM
            }
        } else {
            Span run = tracer.spanBuilder("agent-run (after restart)").startSpan();
            System.out.println("RESULT parent " + run.getSpanContext().getSpanId());
            try (Scope s = run.makeCurrent(); Task t = Task.open("otel-crash", Duration.ofSeconds(60))) {
                print("probe", () -> tools.shipOrder("ord-7", secret));
            } finally {
                run.end();
            }
            Dump.spans(spans.getFinishedSpanItems());
            Dump.metrics(metrics.collectAllMetrics());
            System.out.println("PHASE second done");
        }
    }

    static void print(String name, Calls.Call call) {
        Calls.print(name, call);
    }
}
