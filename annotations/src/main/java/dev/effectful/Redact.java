package dev.effectful;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps a parameter's value out of the journal. Instead of the value, the journal holds a keyed
 * fingerprint: HMAC-SHA-256 under a per-journal secret kept owner-only in the journal directory,
 * so equal values still match but a short secret cannot be recovered by hashing guesses.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface Redact {
}
