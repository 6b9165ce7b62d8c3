package dev.effectful.springboot;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator endpoint {@code effectful} and the agent's status gauges. The health indicator is
 * configured per Spring Boot generation ({@link EffectfulHealthBoot3AutoConfiguration},
 * {@link EffectfulHealthBoot4AutoConfiguration}): its API moved packages in Spring Boot 4.
 */
@AutoConfiguration
public class EffectfulAutoConfiguration {

    /** The endpoint, when the actuator is present and the endpoint is exposed. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        EffectfulEndpoint effectfulEndpoint() {
            return new EffectfulEndpoint();
        }
    }

    /** The gauges, when Micrometer is present (Spring Boot binds every {@code MeterBinder} bean to its registries). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class MetersConfiguration {

        @Bean
        @ConditionalOnMissingBean
        EffectfulMeters effectfulMeters() {
            return new EffectfulMeters();
        }
    }
}
