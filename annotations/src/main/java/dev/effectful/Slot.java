package dev.effectful;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter numbering a genuinely repeated act within one task ("reminder #2"), so that
 * it is a different intent from "reminder #1" while a retry of each is still a repeat. Like
 * {@link IntentKey}, it may mark a field or record component of a tool's one input object.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.RECORD_COMPONENT})
public @interface Slot {
}
