package dev.effectful.springboot;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;

/** {@link EffectfulHealth} as a Spring Boot 3 health indicator ({@code org.springframework.boot.actuate.health}). */
public final class Boot3HealthIndicator implements HealthIndicator {

    @Override
    public Health health() {
        EffectfulHealth h = EffectfulHealth.check();
        return Health.status(new Status(h.status())).withDetails(h.details()).build();
    }
}
