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
 *
 * <p>Where an SDK binds the model's arguments into one object, put it on that object's fields or
 * record components instead: when no parameter of the tool is annotated, the annotated components
 * of its single parameter (or, for a tool method without parameters, of the tool object itself, as in
 * a {@code Supplier}-style tool class) form the target, in declaration order.
 * <!-- compile: members -->
 * <pre>{@code
 * record RefundInput(@IntentKey String orderId, String reason) { }
 *
 * @EffectfulTool(kind = EffectKind.MONEY)
 * String refund(RefundInput input) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface IntentKey {
}
