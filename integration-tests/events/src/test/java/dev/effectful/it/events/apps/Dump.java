package dev.effectful.it.events.apps;

import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prints what the SDK's in-memory exporters hold, one fact a line, for the test to read back:
 * {@code SPAN id parent trace kind status name}, {@code ATTR id key=value}, {@code EVENT id name key=value...},
 * {@code METRIC name {attributes} value}.
 */
public final class Dump {

    private Dump() {
    }

    public static void spans(Collection<SpanData> spans) {
        for (SpanData s : spans) {
            System.out.println("SPAN " + s.getSpanId() + " " + s.getParentSpanId() + " " + s.getTraceId() + " "
                    + s.getKind() + " " + s.getStatus().getStatusCode() + " " + s.getName());
            Map<String, String> attrs = new TreeMap<>();
            s.getAttributes().forEach((k, v) -> attrs.put(k.getKey(), String.valueOf(v)));
            attrs.forEach((k, v) -> System.out.println("ATTR " + s.getSpanId() + " " + k + "=" + v));
            for (EventData e : s.getEvents()) {
                StringBuilder line = new StringBuilder("EVENT " + s.getSpanId() + " " + e.getName());
                e.getAttributes().forEach((k, v) -> line.append(' ').append(k.getKey()).append('=').append(v));
                System.out.println(line);
            }
        }
    }

    public static void metrics(Collection<MetricData> metrics) {
        for (MetricData m : metrics) {
            switch (m.getType()) {
                case LONG_SUM -> m.getLongSumData().getPoints().forEach(p -> print(m, p.getAttributes(), p.getValue()));
                case LONG_GAUGE -> m.getLongGaugeData().getPoints().forEach(p -> print(m, p.getAttributes(), p.getValue()));
                case HISTOGRAM -> m.getHistogramData().getPoints().forEach(p -> print(m, p.getAttributes(),
                        "count=" + p.getCount() + ",unit=" + m.getUnit()));
                default -> System.out.println("METRIC " + m.getName() + " " + m.getType());
            }
        }
    }

    private static void print(MetricData m, io.opentelemetry.api.common.Attributes attrs, Object value) {
        Map<String, String> sorted = new TreeMap<>();
        attrs.forEach((k, v) -> sorted.put(k.getKey(), String.valueOf(v)));
        System.out.println("METRIC " + m.getName() + " " + sorted + " " + value);
    }

}
