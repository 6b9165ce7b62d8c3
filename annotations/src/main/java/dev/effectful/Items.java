package dev.effectful;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@code Collection} parameter of a batch tool. Each element is its own intent, keyed by
 * the call's key plus the element's {@link ItemKey}, with its own outcome. The body names what
 * happened to each element in the {@link Outcome} it returns or throws, or as it goes with
 * {@link Attempt#report(Outcome.Item)}; when the body throws, the elements it did not name are
 * unknown (probed, or held, on the next call), never "not applied".
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Items {
}
