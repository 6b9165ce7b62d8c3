package dev.effectful.core.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.type.CollectionType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes every {@link Set} in the order of its elements' canonical JSON: a HashSet's iteration
 * order depends on its capacity and insertion history, so two equal sets could otherwise key
 * differently.
 */
final class SortedSetsModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    SortedSetsModule() {
        super("effectful-canonical-sets");
        setSerializerModifier(new BeanSerializerModifier() {
            @Override
            public JsonSerializer<?> modifyCollectionSerializer(SerializationConfig config, CollectionType valueType,
                    BeanDescription beanDesc, JsonSerializer<?> serializer) {
                return Set.class.isAssignableFrom(valueType.getRawClass()) ? new SortedSetSerializer() : serializer;
            }
        });
    }

    private static final class SortedSetSerializer extends StdSerializer<Set<?>> {

        private static final long serialVersionUID = 1L;

        @SuppressWarnings({"unchecked", "rawtypes"})
        SortedSetSerializer() {
            super((Class) Set.class);
        }

        @Override
        public void serialize(Set<?> set, JsonGenerator gen, SerializerProvider provider) throws IOException {
            List<Map.Entry<String, Object>> keyed = new ArrayList<>(set.size());
            for (Object element : set) {
                try {
                    keyed.add(Map.entry(CanonicalJson.of(element), element == null ? NULL : element));
                } catch (NotCanonicalException e) {
                    throw JsonMappingException.from(gen, "a set element is not canonical: " + e.getMessage(), e);
                }
            }
            keyed.sort(Map.Entry.comparingByKey(Comparator.naturalOrder()));
            gen.writeStartArray(set, keyed.size());
            for (Map.Entry<String, Object> entry : keyed) {
                Object element = entry.getValue() == NULL ? null : entry.getValue();
                provider.defaultSerializeValue(element, gen);
            }
            gen.writeEndArray();
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, Set<?> value) {
            return value.isEmpty();
        }

        /** Map.entry refuses null values; a set may hold one null. */
        private static final Object NULL = new Object();
    }
}
