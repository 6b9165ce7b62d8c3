package dev.effectful.core.store;

import java.time.Duration;
import java.util.Optional;

/**
 * How a store provider reads its own keys: from the same agent argument, system properties and
 * environment as every other key, with the same rules (a key set but empty is an error, never "use
 * the default"), each problem reported with where the value came from. A problem fails the
 * configuration closed: every effectful call is refused, naming it.
 */
public interface StoreKeys {

    /** The value given for {@code key} (trimmed), or empty when it is not set. */
    Optional<String> get(String key);

    /** A duration key ({@code 500ms}, {@code 2s}, {@code 5m}); a bad value is reported and {@code fallback} returned. */
    Duration duration(String key, Duration fallback);

    /** Reports a problem with {@code key}: what is wrong and the fix. */
    void error(String key, String message);
}
