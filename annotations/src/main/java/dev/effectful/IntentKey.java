package dev.effectful;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a parameter as part of the intent's target: who or what is acted on (an order id, a
 * recipient). Free text such as a subject or a body must not carry it, so that a model's rephrased
 * retry maps to the same intent key.
 *
 * <p>The target is the canonical JSON array of all {@code @IntentKey} arguments in parameter order.
 * An argument that cannot be rendered canonically refuses the call (permanent, effect no).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface IntentKey {
}
