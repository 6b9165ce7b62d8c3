package dev.effectful.it.springboot;

import dev.effectful.it.support.SpringBootActuatorScenario;

import java.nio.file.Path;

/** {@code effectful-spring-boot} on Spring Boot 3 (this module's fat jar). */
class SpringBoot3ActuatorIT extends SpringBootActuatorScenario {

    @Override
    protected Path appJar() {
        return Path.of(System.getProperty("it.spring-boot.jar", "target/effectful-it-spring-boot-0.1.0-SNAPSHOT.jar"))
                .toAbsolutePath();
    }
}
