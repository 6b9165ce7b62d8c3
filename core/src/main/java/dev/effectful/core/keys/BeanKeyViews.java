package dev.effectful.core.keys;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.effectful.core.json.CanonicalJson;
import dev.effectful.core.json.JsonText;
import dev.effectful.core.log.AgentLog;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bean given as an {@code @IntentKey} value is keyed by its canonical JSON, which sees only its
 * Jackson properties (getters and visible fields). A field outside that view (a private id with no
 * getter) is not part of the key, so two values that differ only there share one intent key and
 * the second call is answered with the first one's result. The first time a type is keyed with
 * such a field holding a value, one warning names the type and the field.
 */
public final class BeanKeyViews {

    /** Per type: the instance fields its keyed view leaves out (empty for most types: nothing to check per call). */
    private static final ClassValue<List<Field>> LEFT_OUT = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            return leftOut(type);
        }
    };
    private static final Set<Class<?>> WARNED = ConcurrentHashMap.newKeySet();

    private BeanKeyViews() {
    }

    /**
     * Warns once for {@code value}'s type when its keyed view leaves out a field that holds a value.
     * Never throws: a type that cannot be inspected is not warned about.
     *
     * @param param the parameter's name, for the warning
     */
    public static void check(Object value, String param) {
        if (value == null || JsonText.isSimple(value)) {
            return;
        }
        Class<?> type = value.getClass();
        if (WARNED.contains(type)) {
            return;
        }
        try {
            List<Field> candidates = LEFT_OUT.get(type);
            if (candidates.isEmpty()) {
                return;
            }
            List<String> dropped = new ArrayList<>();
            for (Field f : candidates) {
                if (holdsValue(f.get(value))) {
                    dropped.add(f.getName());
                }
            }
            if (!dropped.isEmpty() && WARNED.add(type)) {
                AgentLog.warn("effectful: @IntentKey parameter '" + param + "' of type " + type.getName() + " is keyed"
                        + " by its JSON properties, which leave out its field" + (dropped.size() > 1 ? "s " : " ")
                        + String.join(", ", dropped.stream().map(n -> "'" + n + "'").toList()) + " (holding a value):"
                        + " two values that differ only there share one intent key, and the second call gets the first"
                        + " one's result. Give the field a getter or @JsonProperty, or key on the id itself"
                        + " (@IntentKey String id)");
            }
        } catch (RuntimeException | IllegalAccessException | LinkageError e) {
            WARNED.add(type); // cannot be inspected: not warned about, and not tried again
        }
    }

    private static List<Field> leftOut(Class<?> type) {
        if (!isApplicationBean(type)) {
            return List.of();
        }
        try {
            ObjectMapper mapper = CanonicalJson.mapper();
            BeanDescription bean = mapper.getSerializationConfig().introspect(mapper.constructType(type));
            Set<String> seen = new HashSet<>(bean.getIgnoredPropertyNames());
            for (BeanPropertyDefinition p : bean.findProperties()) {
                seen.add(p.getInternalName());
                seen.add(p.getName());
                if (p.getField() != null) {
                    seen.add(p.getField().getName());
                }
            }
            List<Field> out = new ArrayList<>();
            for (Class<?> c = type; c != null && isApplicationBean(c); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    int m = f.getModifiers();
                    if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic() || seen.contains(f.getName())) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        out.add(f);
                    } catch (RuntimeException notOpen) {
                        // a module that does not open the type: its fields cannot be read, so not judged
                    }
                }
            }
            return List.copyOf(out);
        } catch (RuntimeException | LinkageError e) {
            return List.of();
        }
    }

    /** A class of the application's (not the JDK's), and a plain bean: not a record, enum, array or container. */
    private static boolean isApplicationBean(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader != null && loader != ClassLoader.getPlatformClassLoader() && type != Object.class
                && !type.isRecord() && !type.isEnum() && !type.isArray() && !type.isInterface()
                && !Collection.class.isAssignableFrom(type) && !Map.class.isAssignableFrom(type)
                && !Number.class.isAssignableFrom(type) && !CharSequence.class.isAssignableFrom(type);
    }

    /** Null, empty text, an empty container and a primitive's zero are no value worth keying on. */
    private static boolean holdsValue(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof CharSequence cs) {
            return cs.length() > 0;
        }
        if (v instanceof Collection<?> c) {
            return !c.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        if (v instanceof Optional<?> o) {
            return o.isPresent();
        }
        if (v.getClass().isArray()) {
            return Array.getLength(v) > 0;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Character ch) {
            return ch != 0;
        }
        return true;
    }
}
