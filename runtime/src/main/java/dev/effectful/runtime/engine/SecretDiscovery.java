package dev.effectful.runtime.engine;

import dev.effectful.core.json.JsonText;
import dev.effectful.core.keys.Fingerprinter;

import java.lang.reflect.Array;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.effectful.runtime.engine.Redactor.MAX_ENCODED_BYTES;
import static dev.effectful.runtime.engine.Redactor.MAX_PROPERTIES;
import static dev.effectful.runtime.engine.Redactor.MIN_CHARS;
import static dev.effectful.runtime.engine.Redactor.MIN_ENCODED_CHARS;

/**
 * Finds every text a call's {@code @Redact} values can be written as, each with the fingerprint that replaces
 * it: the discovery half of {@link Redactor} (which then replaces them). What is looked for is listed on
 * {@link Redactor}: printed forms, the parts of containers, records and beans, and each text's escaped,
 * collapsed, Base64 and hex forms.
 */
final class SecretDiscovery {

    /** How deep nested collections, records and their components are searched for secrets. */
    private static final int MAX_DEPTH = 16;
    private static final List<Base64.Encoder> BASE64 = List.of(Base64.getEncoder(), Base64.getUrlEncoder());

    private final Fingerprinter fp;
    /** Each text found, with its fingerprint, in the order found. */
    final Map<String, String> texts = new LinkedHashMap<>();
    /** Containers and records already searched: a cycle among them ends here. */
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    SecretDiscovery(Fingerprinter fp) {
        this.fp = fp;
    }

    /** {@code top}: the argument itself, which is a secret whatever its type; a part of one only when not trivial. */
    void value(Object value, boolean top, int depth) {
        if (value == null || depth > MAX_DEPTH) {
            return;
        }
        if (value instanceof CharSequence cs) {
            text(value, cs.toString());
        } else if (value instanceof char[] chars) {
            text(value, new String(chars));
        } else if (value instanceof byte[] bytes) {
            bytes(value, bytes);
        } else if (value instanceof ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes); // the caller's position stays where it is
            bytes(value, bytes);
        } else if (value instanceof Boolean || value instanceof Enum<?>) {
            if (top) {
                text(value, value.toString()); // the user marked it: a secret, however short its set
            }
        } else if (value instanceof Number || value instanceof Character) {
            text(value, value.toString());
        } else if (!seen.add(value)) {
            return;
        } else if (value instanceof Optional<?> o) {
            o.ifPresent(e -> value(e, top, depth + 1));
        } else if (value instanceof Collection<?> c) {
            for (Object e : c) {
                value(e, false, depth + 1);
            }
        } else if (value instanceof Map<?, ?> m) {
            for (Object e : m.values()) {
                value(e, false, depth + 1);
            }
        } else if (value.getClass().isArray()) {
            for (int i = 0, n = Array.getLength(value); i < n; i++) {
                value(Array.get(value, i), false, depth + 1);
            }
        } else {
            printed(value);
            if (value.getClass().isRecord() && components(value, depth)) {
                return;
            }
            if (!isPlatformType(value.getClass())) {
                // a bean's properties, as its JSON view shows them: a message may quote any one of them
                RedactedJson.properties(value, MAX_PROPERTIES, p -> value(p, false, depth + 1));
            }
        }
    }

    /** Each component of a record; false when they cannot be read (its JSON view is used then). */
    private boolean components(Object record, int depth) {
        try {
            for (RecordComponent c : record.getClass().getRecordComponents()) {
                java.lang.reflect.Method accessor = c.getAccessor();
                accessor.setAccessible(true);
                value(accessor.invoke(record), false, depth + 1);
            }
            return true;
        } catch (ReflectiveOperationException | RuntimeException unreadable) {
            return false;
        }
    }

    private void printed(Object value) {
        String text;
        try {
            text = String.valueOf(value);
        } catch (RuntimeException brokenToString) {
            return; // nothing it could print, nothing to find
        }
        text(value, text);
    }

    private void text(Object value, String text) {
        if (text == null || text.length() < MIN_CHARS || text.isBlank()) {
            return;
        }
        String fingerprint = fingerprintOf(value, text);
        texts.putIfAbsent(text, fingerprint);
        for (String variant : List.of(collapse(text), JsonText.escaped(text))) {
            if (variant.length() >= MIN_CHARS) {
                texts.putIfAbsent(variant, fingerprint);
            }
        }
        encoded(text.getBytes(StandardCharsets.UTF_8), fingerprint);
    }

    private void bytes(Object value, byte[] bytes) {
        String fingerprint = fingerprintOf(value, null);
        String decoded = new String(bytes, StandardCharsets.UTF_8);
        if (decoded.length() >= MIN_CHARS && !decoded.isBlank()) {
            texts.putIfAbsent(decoded, fingerprint);
            for (String variant : List.of(collapse(decoded), JsonText.escaped(decoded))) {
                if (variant.length() >= MIN_CHARS) {
                    texts.putIfAbsent(variant, fingerprint);
                }
            }
        }
        encoded(bytes, fingerprint);
    }

    /**
     * The bytes as Base64 and hex. Inside a longer Base64 text, bytes starting at an offset of 1
     * or 2 (mod 3) are written as other characters than alone; the characters that depend only
     * on them are looked for, for each of the three offsets.
     */
    private void encoded(byte[] bytes, String fingerprint) {
        if (bytes.length > MAX_ENCODED_BYTES) {
            return; // eight encodings of a document per call would cost more than the call
        }
        List<String> forms = new ArrayList<>(10);
        HexFormat hex = HexFormat.of();
        forms.add(hex.formatHex(bytes));
        forms.add(hex.formatHex(bytes).toUpperCase(Locale.ROOT));
        for (Base64.Encoder encoder : BASE64) {
            forms.add(encoder.encodeToString(bytes));
            for (int offset = 0; offset < 3; offset++) {
                byte[] shifted = new byte[offset + bytes.length];
                System.arraycopy(bytes, 0, shifted, offset, bytes.length);
                String all = encoder.encodeToString(shifted);
                int from = (8 * offset + 5) / 6; // the first character holding no bit of the filler
                int to = 8 * (offset + bytes.length) / 6; // the last one holding no padding bit, exclusive
                if (to > from) {
                    forms.add(all.substring(from, to));
                }
            }
        }
        for (String form : forms) {
            if (form.length() >= MIN_ENCODED_CHARS) {
                texts.putIfAbsent(form, fingerprint);
            }
        }
    }

    private String fingerprintOf(Object value, String text) {
        try {
            return fp.fingerprint(value);
        } catch (RuntimeException e) {
            return fp.fingerprint(text != null ? text : value.getClass().getName());
        }
    }

    /** A JDK type: its {@code toString()} is all there is to look for (no JSON view worth taking apart). */
    private static boolean isPlatformType(Class<?> type) {
        String name = type.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }

    /** The text with each run of whitespace and control characters as one space, as a log line may show it. */
    static String collapse(String s) {
        return s.trim().replaceAll("[\\s\\p{Cntrl}]+", " ");
    }
}
