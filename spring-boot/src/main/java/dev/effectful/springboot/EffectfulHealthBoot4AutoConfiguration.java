package dev.effectful.springboot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The health indicator {@code effectful} on Spring Boot 4 ({@code org.springframework.boot.health.contributor}). */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
public class EffectfulHealthBoot4AutoConfiguration {

    /** Named {@code effectful} in {@code /actuator/health} (the bean name without its suffix). */
    @Bean
    @ConditionalOnMissingBean(name = "effectfulHealthIndicator")
    Boot4HealthIndicator effectfulHealthIndicator() {
        return new Boot4HealthIndicator();
    }
}
