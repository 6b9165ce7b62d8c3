package dev.effectful.springboot;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/** {@link EffectfulHealth} as a Spring Boot 4 health indicator ({@code org.springframework.boot.health.contributor}). */
public final class Boot4HealthIndicator implements HealthIndicator {

    @Override
    public Health health() {
        EffectfulHealth h = EffectfulHealth.check();
        return Health.status(new Status(h.status())).withDetails(h.details()).build();
    }
}
