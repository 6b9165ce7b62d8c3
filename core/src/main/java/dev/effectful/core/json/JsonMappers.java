package dev.effectful.core.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;

/**
 * The one {@link ObjectMapper} the runtime uses, so that the journal, the keys and replayed
 * results all see a value the same way.
 *
 * <p>Security: default typing is never enabled, and the polymorphic type validator allows no
 * class at all, so even a user type annotated {@code @JsonTypeInfo(use = CLASS)} cannot make the
 * runtime instantiate a class named in a journal file.
 *
 * <p>Only jackson-databind is on the class path, so {@code java.time} values (ISO-8601 text) and
 * {@code Optional} (its content, or null) are handled by this package's own small modules.
 *
 * <p>Shared and therefore not to be reconfigured; {@link ObjectMapper#copy()} it instead.
 */
public final class JsonMappers {

    private static final ObjectMapper SHARED = build();

    private JsonMappers() {
    }

    public static ObjectMapper shared() {
        return SHARED;
    }

    private static ObjectMapper build() {
        return JsonMapper.builder()
                .polymorphicTypeValidator(BasicPolymorphicTypeValidator.builder().build())
                .deactivateDefaultTyping()
                // A journal written by a newer version of a tool's result type must still replay.
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // An empty bean is journaled as {} rather than failing the call it describes.
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
                .addModule(new IsoTimeModule())
                .addModule(new OptionalModule())
                .build();
    }
}
