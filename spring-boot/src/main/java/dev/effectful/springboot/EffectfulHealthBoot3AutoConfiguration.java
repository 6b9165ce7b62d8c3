package dev.effectful.springboot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The health indicator {@code effectful} on Spring Boot 3 ({@code org.springframework.boot.actuate.health}). */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
public class EffectfulHealthBoot3AutoConfiguration {

    /** Named {@code effectful} in {@code /actuator/health} (the bean name without its suffix). */
    @Bean
    @ConditionalOnMissingBean(name = "effectfulHealthIndicator")
    Boot3HealthIndicator effectfulHealthIndicator() {
        return new Boot3HealthIndicator();
    }
}
