package dev.effectful.agent.e2e;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A test run once on every JDK the build found ({@link Jdk#all()}), the {@link Jdk} its one parameter. */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest
@MethodSource("dev.effectful.agent.e2e.Jdk#all")
public @interface EveryJdk {
}
