package dev.effectful.bench;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.Collection;

/**
 * {@code effectful_otel}: {@link EffectfulBench#newIntent} in an application that registered the
 * OpenTelemetry SDK as its global, sampling every span (batched to an exporter that drops them, so
 * the cost measured is the span and meters made per call, not an export's I/O).
 */
public class OtelBench {

    /** The application's OpenTelemetry, registered once per fork before any call. */
    @State(Scope.Benchmark)
    public static class Sdk {
        OpenTelemetrySdk sdk;

        @Setup(Level.Trial)
        public void register() {
            // spans are batched as in production and handed to OpenTelemetry's own no-op exporter (the
            // composite of none), which drops them; metrics have no such exporter, hence DroppingMetrics
            sdk = OpenTelemetrySdk.builder()
                    .setTracerProvider(SdkTracerProvider.builder().setSampler(Sampler.alwaysOn())
                            .addSpanProcessor(BatchSpanProcessor.builder(SpanExporter.composite()).build()).build())
                    .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(PeriodicMetricReader
                            .builder(new DroppingMetrics()).setInterval(Duration.ofSeconds(10)).build()).build())
                    .buildAndRegisterGlobal();
        }

        @TearDown(Level.Trial)
        public void close() {
            sdk.close();
        }
    }

    @Benchmark
    public String newIntent(Sdk sdk, EffectfulBench.Caller c) {
        return c.tools.sendEmail(Callers.recipient(c.prefix, c.n++), MailTools.SUBJECT, 3);
    }

    private static final class DroppingMetrics implements MetricExporter {
        @Override
        public CompletableResultCode export(Collection<MetricData> metrics) {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType type) {
            return AggregationTemporality.CUMULATIVE;
        }

        @Override
        public MemoryMode getMemoryMode() {
            return MemoryMode.REUSABLE_DATA;
        }
    }
}
