package dev.effectful.core.journal;

import com.fasterxml.jackson.databind.JsonNode;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON shape a tool's return value takes, as far as a person's {@code resolve --result} can be checked
 * against it without the tool's classes: the CLI reads it from the journal directory
 * ({@link ResultShapes}), the engine writes it when it first meets a tool. The check is as lenient as the
 * decoder the repeat uses (Jackson coerces a JSON number to a {@code String}, or {@code "42"} to an int):
 * it refuses only what can never decode, such as an object for a {@code String}.
 */
public enum ResultShape {
    /** {@code void}: a resolution has no value to give. */
    NONE,
    /** A string, a char or an enum constant. */
    STRING,
    /** Any primitive or boxed number, {@code BigDecimal}, {@code BigInteger}. */
    NUMBER,
    BOOLEAN,
    /** An array or a collection. */
    ARRAY,
    /** A map: a JSON object. */
    MAP,
    /** Any other class: not checked here (a record may be built from a scalar by its creator). */
    OTHER;

    /** The shape of {@code type}, the value a repeat returns (after any {@code Outcome} or future around it). */
    public static ResultShape of(Type type) {
        Class<?> c = raw(type);
        if (c == null) {
            return OTHER;
        }
        if (c == void.class || c == Void.class) {
            return NONE;
        }
        if (c == String.class || c == char.class || c == Character.class || CharSequence.class.isAssignableFrom(c)
                || c.isEnum()) {
            return STRING;
        }
        if (c == boolean.class || c == Boolean.class) {
            return BOOLEAN;
        }
        if (c.isPrimitive() || c == BigDecimal.class || c == BigInteger.class || Number.class.isAssignableFrom(c)
                && c.getName().startsWith("java.")) {
            return NUMBER;
        }
        if (c.isArray() || Collection.class.isAssignableFrom(c)) {
            return ARRAY;
        }
        if (Map.class.isAssignableFrom(c)) {
            return MAP;
        }
        return OTHER;
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) {
            return c;
        }
        if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        if (t instanceof GenericArrayType) {
            return Object[].class;
        }
        return null; // a type variable or wildcard: not known here
    }

    /** The word in the journal directory's file. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The shape for a word; {@link #OTHER} for one this reader does not know. */
    public static ResultShape ofWord(String word) {
        for (ResultShape s : values()) {
            if (s.word().equals(word)) {
                return s;
            }
        }
        return OTHER;
    }

    /**
     * Why {@code value} can never be what a tool of this shape returns, or null when it may be. JSON
     * {@code null} fits every shape but {@link #NONE} (a reference type may be null).
     */
    public String misfit(JsonNode value) {
        if (this == NONE) {
            return "it returns nothing (void); resolve without --result";
        }
        if (value == null || value.isNull() || this == OTHER) {
            return null;
        }
        boolean fits = switch (this) {
            case STRING -> value.isValueNode();
            case NUMBER -> value.isNumber() || value.isTextual() && isNumber(value.textValue());
            case BOOLEAN -> value.isBoolean() || value.isNumber()
                    || value.isTextual() && (value.textValue().equals("true") || value.textValue().equals("false"));
            case ARRAY -> value.isArray();
            case MAP -> value.isObject();
            default -> true;
        };
        return fits ? null : "it returns " + article() + ", and " + what(value) + " can never be one";
    }

    private String article() {
        return switch (this) {
            case STRING -> "a string (give one in quotes, e.g. --result '\"receipt-42\"')";
            case NUMBER -> "a number (e.g. --result 42)";
            case BOOLEAN -> "true or false";
            case ARRAY -> "a list (a JSON array, e.g. --result '[\"a\"]')";
            case MAP -> "a map (a JSON object, e.g. --result '{\"id\":7}')";
            default -> "a value";
        };
    }

    private static String what(JsonNode n) {
        return n.isObject() ? "a JSON object" : n.isArray() ? "a JSON array" : n.isTextual() ? "the string "
                + n.toString() : n.isBoolean() ? n.toString() : "the value " + n;
    }

    private static boolean isNumber(String s) {
        try {
            new BigDecimal(s.strip());
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
