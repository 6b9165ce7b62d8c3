package dev.effectful.it.events.apps;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.Map;
import java.util.TreeMap;

/** An application with Micrometer's SimpleMeterRegistry in the global registry; prints its meters after {@link PlainApp}. */
public final class MicrometerApp {

    private MicrometerApp() {
    }

    public static void main(String[] args) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Metrics.addRegistry(registry);
        PlainApp.main(args);
        for (Meter m : registry.getMeters()) {
            Map<String, String> tags = new TreeMap<>();
            m.getId().getTags().forEach(t -> tags.put(t.getKey(), t.getValue()));
            String value = m instanceof Counter c ? String.valueOf((long) c.count())
                    : m instanceof Timer tm ? "count=" + tm.count()
                    : m instanceof Gauge g ? String.valueOf((long) g.value()) : m.getClass().getSimpleName();
            System.out.println("METER " + m.getId().getName() + " " + tags + " " + value);
        }
    }
}
