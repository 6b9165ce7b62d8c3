package dev.effectful.core.values;

import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.json.JsonText;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * Stores a tool's return value in the journal and reads it back when a repeat of a known-ok
 * intent is answered from the journal, which must then be indistinguishable from the original.
 *
 * <p>Decoding is driven only by the method's declared generic return type, never by type
 * information in the stored text. {@code Optional} is stored as its content or null
 * ({@code void} and null as {@code null}).
 */
public final class ResultCodec {

    /** The mapper given, or null for the shared one, looked up when a value first needs it. */
    private final ObjectMapper mapper;
    private final int maxChars;
    private final ReplayableTypes replayable;
    /** The shared mapper writes simple values as {@link JsonText} does; another one may be configured otherwise. */
    private final boolean simpleText;
    /** Immutable results already decoded: a dedup hit answers from here instead of parsing again. */
    private final DecodedValues decoded = new DecodedValues();

    /**
     * @param mapper normally {@link JsonMappers#shared()}, which knows Optional and java.time
     * @param maxChars the longest JSON text worth storing, e.g. 1 MiB
     */
    public ResultCodec(ObjectMapper mapper, int maxChars) {
        this(Objects.requireNonNull(mapper, "mapper"), maxChars, mapper == JsonMappers.shared());
    }

    /**
     * A codec on {@link JsonMappers#shared()}, which is built only when a value first needs it: the
     * common results (a String, an id, a flag, null) are written as {@link JsonText}, so a start
     * that serves such calls never loads Jackson's mapper.
     */
    public static ResultCodec onSharedMapper(int maxChars) {
        return new ResultCodec(null, maxChars, true);
    }

    private ResultCodec(ObjectMapper mapper, int maxChars, boolean simpleText) {
        if (maxChars < 4) {
            throw new IllegalArgumentException("maxChars must leave room for at least \"null\": " + maxChars);
        }
        this.mapper = mapper;
        this.maxChars = maxChars;
        this.simpleText = simpleText;
        this.replayable = new ReplayableTypes(mapper);
    }

    private ObjectMapper mapper() {
        return mapper != null ? mapper : JsonMappers.shared();
    }

    /** The JSON to store, or why there is none; never throws. */
    public Encoded encode(Object value) {
        if (value instanceof String s && s.length() > maxChars) {
            // Checked before serializing: its JSON can only be longer.
            return tooLarge();
        }
        // the common results (a String, an id, a flag) without a generator, the same text Jackson writes
        String simple = simpleText ? JsonText.simple(value) : null;
        if (simple != null && simple.length() <= maxChars) {
            return new Encoded(simple, null);
        }
        return encodeWithJackson(value);
    }

    /** {@link #encode} through the mapper: every value, and the reference the simple path must equal. */
    Encoded encodeWithJackson(Object value) {
        CappedWriter out = new CappedWriter(maxChars, false);
        try {
            mapper().writeValue(out, value);
        } catch (Throwable t) {
            Unserializable.rethrowIfFatal(t);
            if (out.exceeded()) {
                return tooLarge();
            }
            return new Encoded(null, "unserializable: " + Unserializable.describe(value, t));
        }
        return out.exceeded() ? tooLarge() : new Encoded(out.text(), null);
    }

    private Encoded tooLarge() {
        return new Encoded(null, "too large: the result's JSON exceeds " + maxChars + " chars");
    }

    /**
     * Reads a stored result back as the declared return type.
     *
     * @throws UnreplayableTypeException when the type cannot be rebuilt from JSON without class
     *     names (Object, an interface or abstract class other than the java.util collections,
     *     a raw collection, an unsupported JDK type)
     * @throws IOException when the text does not fit the type
     */
    public Object decode(String json, Type type) throws IOException {
        Objects.requireNonNull(json, "json");
        String whyNot = replayable.whyNotDecodable(type);
        if (whyNot != null) {
            throw new UnreplayableTypeException("Cannot read a stored result back as " + type.getTypeName() + ": " + whyNot);
        }
        if (type == void.class || type == Void.class) {
            return null;
        }
        Object known = decoded.find(json, type);
        if (known != null) {
            return known;
        }
        ObjectMapper m = mapper();
        Object value = m.readValue(json, m.getTypeFactory().constructType(type));
        decoded.remember(json, type, value);
        return value;
    }

    /**
     * Whether a value of this declared return type can be stored and read back equal in type and
     * content. Stricter than {@link #decode}: a class with state Jackson does not see (a private
     * field without accessor) decodes, but not faithfully. {@code Collection} replays as a List.
     */
    public boolean canReplay(Type type) {
        return replayable.whyNotReplayable(type) == null;
    }

    /**
     * @param json the text to store, null when not storable
     * @param problem why not storable ({@code "unserializable: <class>: <reason>"} or
     *     {@code "too large: ..."}), null when fine
     */
    public record Encoded(String json, String problem) {
    }
}
