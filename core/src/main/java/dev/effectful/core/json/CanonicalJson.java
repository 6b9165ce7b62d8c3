package dev.effectful.core.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.NumericNode;
import dev.effectful.core.json.JsonMappers;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Renders a value as canonical JSON, so that the same intent always hashes to the same key.
 *
 * <p>Rules, all chosen so that equal values render equally however they were built:
 * <ul>
 *   <li>values are seen through their Jackson properties (records: components; POJOs: getters and
 *       visible fields; {@code java.time}: ISO-8601 text; {@code Optional}: its content or null);
 *   <li>object keys sorted by {@link String#compareTo} (UTF-16 code units, as in RFC 8785);
 *       no whitespace anywhere;
 *   <li>list and array order is kept (it means something); sets are sorted by their elements'
 *       canonical text, because their iteration order depends on how they were built;
 *   <li>numbers by mathematical value, in plain decimal without exponent or trailing zeros:
 *       {@code 1}, {@code 1.0}, {@code 1.00} and {@code 1E0} all render {@code 1}; {@code 0.1f}
 *       and {@code 0.1d} both render {@code 0.1} (each type's shortest decimal form);
 *       {@code -0.0} renders {@code 0};
 *   <li>strings escaped as Jackson does by default (quotes, backslash, control characters; other
 *       characters as they are).
 * </ul>
 * Refused with {@link NotCanonicalException}: cycles, NaN and infinities, beans without
 * properties, map keys that collide once rendered as text, numbers whose plain rendering would
 * exceed {@value #MAX_DECIMAL_EXPONENT} digits, and anything Jackson fails to serialize.
 */
public final class CanonicalJson {

    /** Bounds the plain rendering of e.g. 1E+999999999, which would otherwise exhaust memory. */
    static final int MAX_DECIMAL_EXPONENT = 1000;

    /**
     * Jackson, built on the first value that is not a scalar: an intent key of strings and numbers
     * (nearly all of them) never loads it, so the engine can serve its first call without the
     * several hundred classes Jackson's mapper loads (initialization-on-demand). Its setup lives
     * here too: the verifier loads the types a method of the outer class passes around.
     */
    private static final class Jackson {
        static final ObjectMapper MAPPER = canonicalMapper();
        /** A private factory: its escaping must not change if someone reconfigures the shared mapper. */
        static final JsonFactory WRITER = new JsonFactory();

        private static ObjectMapper canonicalMapper() {
            ObjectMapper mapper = JsonMappers.shared().copy();
            // An empty bean renders {} whatever its hidden state: every instance would key the same.
            mapper.enable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
            // Map keys 1 and "1" both render "1"; silently keeping one would merge distinct targets.
            mapper.enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
            mapper.registerModule(new SortedSetsModule());
            return mapper;
        }
    }

    private CanonicalJson() {
    }

    /**
     * The mapper whose view of a value its canonical JSON is: {@code keys.BeanKeyViews} asks it which
     * fields a keyed bean's JSON leaves out. Not for writing: {@link #of} is the canonical form.
     */
    public static ObjectMapper mapper() {
        return Jackson.MAPPER;
    }

    /** Canonical JSON of one value; null renders {@code null}. */
    public static String of(Object value) throws NotCanonicalException {
        String scalar = scalar(value);
        if (scalar != null) {
            return scalar;
        }
        JsonNode tree = toTree(value);
        StringWriter out = new StringWriter();
        try (JsonGenerator gen = Jackson.WRITER.createGenerator(out)) {
            write(tree, gen);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toString();
    }

    /** The intent target: a canonical JSON array of the values in order, e.g. {@code ["ord-1",{"a":1,"b":2}]}. */
    public static String array(List<?> values) throws NotCanonicalException {
        Objects.requireNonNull(values, "values");
        StringBuilder sb = new StringBuilder("[");
        for (Object value : values) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            append(sb, value);
        }
        return sb.append(']').toString();
    }

    /**
     * The canonical text of the values almost every intent key is made of (ids as strings and
     * integers), without building a tree; null for anything else. Same text as the general path.
     */
    static String scalar(Object value) {
        return JsonText.simple(value);
    }

    /** Appends the canonical JSON of {@code value}: the scalars in place, anything else through {@link #of}. */
    public static StringBuilder append(StringBuilder sb, Object value) throws NotCanonicalException {
        return JsonText.isSimple(value) ? JsonText.appendSimple(sb, value) : sb.append(of(value));
    }

    private static JsonNode toTree(Object value) throws NotCanonicalException {
        try {
            return Jackson.MAPPER.valueToTree(value);
        } catch (StackOverflowError e) {
            // Jackson only detects direct self-references; longer cycles end here.
            throw new NotCanonicalException(describe(value) + " is cyclic or too deeply nested", e);
        } catch (RuntimeException e) {
            Throwable cause = rootCause(e);
            if (cause instanceof StackOverflowError) {
                throw new NotCanonicalException(describe(value) + " is cyclic or too deeply nested", e);
            }
            if (cause instanceof NotCanonicalException nce) {
                throw new NotCanonicalException(describe(value) + ": " + nce.getMessage(), e);
            }
            throw new NotCanonicalException(describe(value) + " cannot be rendered as JSON: " + firstLine(e.getMessage()), e);
        }
    }

    private static void write(JsonNode node, JsonGenerator gen) throws IOException, NotCanonicalException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                List<String> names = new ArrayList<>();
                node.fieldNames().forEachRemaining(names::add);
                names.sort(null);
                gen.writeStartObject();
                for (String name : names) {
                    gen.writeFieldName(name);
                    write(node.get(name), gen);
                }
                gen.writeEndObject();
            }
            case ARRAY -> {
                gen.writeStartArray();
                for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                    write(it.next(), gen);
                }
                gen.writeEndArray();
            }
            case STRING -> gen.writeString(node.textValue());
            case NUMBER -> gen.writeNumber(number((NumericNode) node));
            case BOOLEAN -> gen.writeBoolean(node.booleanValue());
            case NULL -> gen.writeNull();
            case BINARY -> gen.writeBinary(node.binaryValue());
            default -> throw new NotCanonicalException("a " + node.getNodeType() + " node has no canonical JSON form");
        }
    }

    private static String number(NumericNode node) throws NotCanonicalException {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        BigDecimal value;
        if (node.isFloat()) {
            float f = node.floatValue();
            requireFinite(f);
            // Float.toString is the float's shortest form; widening to double first would add noise digits.
            value = new BigDecimal(Float.toString(f));
        } else if (node.isDouble()) {
            double d = node.doubleValue();
            requireFinite(d);
            value = BigDecimal.valueOf(d);
        } else {
            value = node.decimalValue();
        }
        return plain(value);
    }

    private static String plain(BigDecimal value) throws NotCanonicalException {
        if (value.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = value.stripTrailingZeros();
        int exponent = stripped.precision() - stripped.scale() - 1;
        if (Math.abs(exponent) > MAX_DECIMAL_EXPONENT) {
            throw new NotCanonicalException("the number " + value + " is too large or too small to render in plain decimal");
        }
        return stripped.scale() <= 0 ? stripped.toBigIntegerExact().toString() : stripped.toPlainString();
    }

    private static void requireFinite(double d) throws NotCanonicalException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new NotCanonicalException(d + " has no JSON form");
        }
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName();
    }

    static Throwable rootCause(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "(no message)";
        }
        int eol = message.indexOf('\n');
        return eol < 0 ? message : message.substring(0, eol);
    }
}
