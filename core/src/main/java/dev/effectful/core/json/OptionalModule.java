package dev.effectful.core.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.deser.Deserializers;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.AccessPattern;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * {@code Optional} as its content or null, standing in for jackson-datatype-jdk8, which the runtime
 * does not ship (plain Jackson refuses Optional). {@code Optional.empty()} and {@code null} both
 * write {@code null} and read back as empty; a tool returning a null Optional is broken anyway.
 */
final class OptionalModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    @SuppressWarnings({"unchecked", "rawtypes"})
    OptionalModule() {
        super("effectful-optional");
        addSerializer((Class) Optional.class, new OptionalSerializer());
        addSerializer(OptionalInt.class, new PrimitiveOptionalSerializer<>(OptionalInt.class));
        addSerializer(OptionalLong.class, new PrimitiveOptionalSerializer<>(OptionalLong.class));
        addSerializer(OptionalDouble.class, new PrimitiveOptionalSerializer<>(OptionalDouble.class));
    }

    @Override
    public void setupModule(SetupContext context) {
        super.setupModule(context);
        // Optional's deserializer depends on its type argument, which SimpleDeserializers cannot see.
        context.addDeserializers(new Deserializers.Base() {
            @Override
            public JsonDeserializer<?> findBeanDeserializer(JavaType type, DeserializationConfig config, BeanDescription beanDesc) {
                Class<?> raw = type.getRawClass();
                if (raw == Optional.class) {
                    return new OptionalDeserializer(type.containedTypeOrUnknown(0), null);
                }
                if (raw == OptionalInt.class) {
                    return new PrimitiveOptionalDeserializer<>(OptionalInt.class, OptionalInt.empty(),
                            p -> OptionalInt.of(p.getValueAsInt()));
                }
                if (raw == OptionalLong.class) {
                    return new PrimitiveOptionalDeserializer<>(OptionalLong.class, OptionalLong.empty(),
                            p -> OptionalLong.of(p.getValueAsLong()));
                }
                if (raw == OptionalDouble.class) {
                    return new PrimitiveOptionalDeserializer<>(OptionalDouble.class, OptionalDouble.empty(),
                            p -> OptionalDouble.of(p.getValueAsDouble()));
                }
                return null;
            }
        });
    }

    private static final class OptionalSerializer extends StdSerializer<Optional<?>> {

        private static final long serialVersionUID = 1L;

        @SuppressWarnings({"unchecked", "rawtypes"})
        OptionalSerializer() {
            super((Class) Optional.class);
        }

        @Override
        public void serialize(Optional<?> value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value.isPresent()) {
                provider.defaultSerializeValue(value.get(), gen);
            } else {
                gen.writeNull();
            }
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, Optional<?> value) {
            return value == null || value.isEmpty();
        }
    }

    private static final class PrimitiveOptionalSerializer<T> extends StdSerializer<T> {

        private static final long serialVersionUID = 1L;

        PrimitiveOptionalSerializer(Class<T> type) {
            super(type);
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (value instanceof OptionalInt o && o.isPresent()) {
                gen.writeNumber(o.getAsInt());
            } else if (value instanceof OptionalLong o && o.isPresent()) {
                gen.writeNumber(o.getAsLong());
            } else if (value instanceof OptionalDouble o && o.isPresent()) {
                gen.writeNumber(o.getAsDouble());
            } else {
                gen.writeNull();
            }
        }
    }

    private static final class OptionalDeserializer extends StdDeserializer<Optional<?>> implements ContextualDeserializer {

        private static final long serialVersionUID = 1L;
        private final JavaType contentType;
        private final JsonDeserializer<Object> content;

        OptionalDeserializer(JavaType contentType, JsonDeserializer<Object> content) {
            super(Optional.class);
            this.contentType = contentType;
            this.content = content;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) throws JsonMappingException {
            return content != null ? this : new OptionalDeserializer(contentType, ctxt.findContextualValueDeserializer(contentType, property));
        }

        @Override
        public Optional<?> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonDeserializer<Object> deser = content != null ? content : ctxt.findRootValueDeserializer(contentType);
            return Optional.ofNullable(deser.deserialize(p, ctxt));
        }

        @Override
        public Optional<?> getNullValue(DeserializationContext ctxt) {
            return Optional.empty();
        }

        @Override
        public Object getAbsentValue(DeserializationContext ctxt) {
            return Optional.empty();
        }

        @Override
        public AccessPattern getNullAccessPattern() {
            return AccessPattern.CONSTANT;
        }
    }

    private static final class PrimitiveOptionalDeserializer<T> extends StdDeserializer<T> {

        private static final long serialVersionUID = 1L;
        private final transient T empty;
        private final transient Reader<T> reader;

        PrimitiveOptionalDeserializer(Class<T> type, T empty, Reader<T> reader) {
            super(type);
            this.empty = empty;
            this.reader = reader;
        }

        @Override
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.currentToken().isNumeric()) {
                @SuppressWarnings("unchecked")
                T handled = (T) ctxt.handleUnexpectedToken(handledType(), p);
                return handled;
            }
            return reader.read(p);
        }

        @Override
        public T getNullValue(DeserializationContext ctxt) {
            return empty;
        }

        @Override
        public Object getAbsentValue(DeserializationContext ctxt) {
            return empty;
        }

        @Override
        public AccessPattern getNullAccessPattern() {
            return AccessPattern.CONSTANT;
        }
    }

    @FunctionalInterface
    private interface Reader<T> {
        T read(JsonParser p) throws IOException;
    }
}
