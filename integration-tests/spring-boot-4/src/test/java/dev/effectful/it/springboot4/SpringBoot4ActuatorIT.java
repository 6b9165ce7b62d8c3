package dev.effectful.it.springboot4;

import dev.effectful.it.support.SpringBootActuatorScenario;

import java.nio.file.Path;

/** {@code effectful-spring-boot} on Spring Boot 4: the Spring Boot 3 module's application, built on Boot 4. */
class SpringBoot4ActuatorIT extends SpringBootActuatorScenario {

    @Override
    protected Path appJar() {
        return Path.of(System.getProperty("it.spring-boot.jar", "target/effectful-it-spring-boot-4-0.1.0-SNAPSHOT.jar"))
                .toAbsolutePath();
    }
}
