package dev.effectful.core.values;

import java.lang.reflect.Type;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Results already read back from their JSON, kept when the value is immutable: a repeated intent
 * (a dedup hit) is answered with the value decoded the first time instead of parsing the same text
 * again (the parse was a sixth of a dedup hit). Only immutable values are kept, so a caller that
 * gets the same instance twice cannot tell. Direct-mapped and lock-free like the journal's recent
 * results: a newer entry simply replaces an older one in its slot; an entry is checked by its text
 * and type, so it is never wrong.
 */
final class DecodedValues {

    private static final int SLOTS = 256;
    /** Longer texts are parsed each time: the cache stays small. */
    static final int MAX_JSON_CHARS = 1024;

    private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Integer.class, Long.class, Short.class,
            Byte.class, Character.class, Boolean.class, Double.class, Float.class, java.math.BigDecimal.class,
            java.math.BigInteger.class, java.util.UUID.class, java.time.Instant.class, java.time.LocalDate.class,
            java.time.LocalDateTime.class, java.time.LocalTime.class, java.time.OffsetDateTime.class,
            java.time.ZonedDateTime.class, java.time.Duration.class, java.time.Period.class);

    private record Entry(String json, Type type, Object value) {
    }

    private final AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(SLOTS);

    /** The value decoded earlier from {@code json} as {@code type}, or null. */
    Object find(String json, Type type) {
        if (json.length() > MAX_JSON_CHARS) {
            return null;
        }
        Entry e = slots.get(slot(json, type));
        return e != null && e.type().equals(type) && e.json().equals(json) ? e.value() : null;
    }

    void remember(String json, Type type, Object value) {
        if (value != null && json.length() <= MAX_JSON_CHARS && immutable(value)) {
            slots.set(slot(json, type), new Entry(json, type, value));
        }
    }

    private static boolean immutable(Object value) {
        return IMMUTABLE.contains(value.getClass()) || value instanceof Enum<?>;
    }

    private static int slot(String json, Type type) {
        int h = json.hashCode() * 31 + type.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
