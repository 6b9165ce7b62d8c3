package dev.effectful.springboot;

import dev.effectful.AgentStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.time.Instant;
import java.util.function.ToDoubleFunction;

/**
 * The agent's status as gauges in the application's registry: {@code effectful.approvals.waiting},
 * {@code effectful.approvals.oldest} (seconds), {@code effectful.journal.writable} (1 or 0) and
 * {@code effectful.journal.headroom} (bytes before the journal's reserve). The agent's own meters
 * ({@code gen_ai.execute_tool.duration}, {@code effectful.calls}, {@code effectful.unresolved}) reach the
 * application's registry through Micrometer's global registry, which Spring Boot adds its registry to
 * ({@code management.metrics.use-global-registry}, true by default). Without the agent: no gauge.
 */
public final class EffectfulMeters implements MeterBinder {

    @Override
    public void bindTo(MeterRegistry registry) {
        if (!AgentStatus.read().agentLoaded()) {
            return;
        }
        gauge(registry, "effectful.approvals.waiting", "intents", "Intents waiting for a person's approval",
                s -> s.approvals().size());
        gauge(registry, "effectful.approvals.oldest", "seconds", "Age of the oldest intent waiting for approval",
                s -> EffectfulHealth.of(s, Instant.now()).details().get("oldest_waiting_s") instanceof Number n
                        ? n.doubleValue() : 0);
        gauge(registry, "effectful.journal.writable", null, "1 while the journal takes new intents, 0 while it refuses them",
                s -> s.engineRunning() && s.journalProblem().isEmpty() ? 1 : 0);
        gauge(registry, "effectful.journal.headroom", "bytes", "Bytes the journal's disk takes before its reserve is reached",
                s -> s.bytesBeforeRefusal() < 0 ? Double.NaN : s.bytesBeforeRefusal());
    }

    private static void gauge(MeterRegistry registry, String name, String unit, String description,
                              ToDoubleFunction<AgentStatus> value) {
        Gauge.builder(name, () -> value.applyAsDouble(AgentStatus.read())).baseUnit(unit).description(description)
                .strongReference(true).register(registry);
    }
}
