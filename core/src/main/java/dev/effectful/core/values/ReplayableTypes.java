package dev.effectful.core.values;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedWithParams;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import dev.effectful.core.json.JsonMappers;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.UUID;

/**
 * Judges whether a declared type can be rebuilt from its JSON using nothing but the type itself.
 * Everything is decided from the declared type, never from the stored text: that is what makes
 * replay safe from class names planted in a journal, and what makes Object and interfaces
 * unreplayable.
 */
final class ReplayableTypes {

    /** JDK value types whose JSON form reads back equal. */
    private static final Set<Class<?>> JDK_VALUES = Set.of(
            String.class, Boolean.class, Character.class, Byte.class, Short.class, Integer.class, Long.class,
            Float.class, Double.class, BigDecimal.class, BigInteger.class, UUID.class, URI.class, Date.class,
            OptionalInt.class, OptionalLong.class, OptionalDouble.class,
            Instant.class, LocalDate.class, LocalDateTime.class, LocalTime.class, OffsetDateTime.class,
            OffsetTime.class, ZonedDateTime.class, Year.class, YearMonth.class, MonthDay.class, Duration.class,
            Period.class, ZoneId.class, ZoneOffset.class);

    /** Collection interfaces Jackson maps to a concrete class whose equals compares content. */
    private static final Set<Class<?>> COLLECTION_INTERFACES = Set.of(
            Collection.class, List.class, Set.class, SortedSet.class, NavigableSet.class,
            Map.class, SortedMap.class, NavigableMap.class);

    /** Map keys are JSON text; these read back from text. */
    private static final Set<Class<?>> MAP_KEYS = Set.of(
            String.class, Boolean.class, Character.class, Byte.class, Short.class, Integer.class, Long.class,
            Float.class, Double.class, BigDecimal.class, BigInteger.class, UUID.class);

    /** The codec's mapper, or null for the shared one: looked up only when a type is judged. */
    private final ObjectMapper mapper;

    ReplayableTypes(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    private ObjectMapper mapper() {
        return mapper != null ? mapper : JsonMappers.shared();
    }

    /** A class's answer never changes under one mapper: a dedup hit asks for it on every repeat. */
    private final ClassValue<Optional<String>> decodableClasses = new ClassValue<>() {
        @Override
        protected Optional<String> computeValue(Class<?> type) {
            return Optional.ofNullable(check(type, false));
        }
    };

    /** Null when {@code decode} can rebuild the type; otherwise why not. */
    String whyNotDecodable(Type type) {
        if (type instanceof Class<?> c) {
            return decodableClasses.get(c).orElse(null);
        }
        return check(type, false);
    }

    /** Null when a value of the type reads back equal; otherwise why not. */
    String whyNotReplayable(Type type) {
        return check(type, true);
    }

    private String check(Type type, boolean strict) {
        if (type == null) {
            return "no type";
        }
        if (type == void.class || type == Void.class) {
            return null;
        }
        try {
            return check(mapper().getTypeFactory().constructType(type), strict, new HashSet<>());
        } catch (RuntimeException e) {
            return "Jackson cannot resolve it: " + e.getMessage();
        }
    }

    private String check(JavaType type, boolean strict, Set<JavaType> seen) {
        Class<?> raw = type.getRawClass();
        if (type.isPrimitive() || JDK_VALUES.contains(raw) || type.isEnumType() && raw != Enum.class) {
            return null;
        }
        if (type.isJavaLangObject()) {
            return "Object says nothing about which class to rebuild";
        }
        if (type.isArrayType()) {
            return check(type.getContentType(), strict, seen);
        }
        if (raw == Optional.class) {
            JavaType content = type.containedTypeOrUnknown(0);
            if (content.getRawClass() == Optional.class) {
                return "Optional<Optional<...>>: empty and Optional.of(empty) are both stored as null";
            }
            return in("Optional", check(content, strict, seen));
        }
        if (type.isMapLikeType()) {
            String why = collectionClass(raw);
            if (why != null) {
                return why;
            }
            Class<?> key = type.getKeyType().getRawClass();
            if (!MAP_KEYS.contains(key) && !type.getKeyType().isEnumType()) {
                return "map key type " + key.getName() + " cannot be read back from JSON text";
            }
            return in("map value", check(type.getContentType(), strict, seen));
        }
        if (type.isCollectionLikeType()) {
            String why = collectionClass(raw);
            return why != null ? why : in("element", check(type.getContentType(), strict, seen));
        }
        if (isJdk(raw)) {
            return raw.getName() + " is not a JDK type the journal can rebuild";
        }
        if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
            return raw.getName() + " is " + (raw.isInterface() ? "an interface" : "abstract")
                    + ": the stored JSON says nothing about which class to rebuild";
        }
        if (Throwable.class.isAssignableFrom(raw)) {
            return raw.getName() + " is an exception: its stack and cause do not survive JSON";
        }
        if (raw.isMemberClass() && !Modifier.isStatic(raw.getModifiers()) || raw.isLocalClass() || raw.isAnonymousClass()) {
            return raw.getName() + " needs an enclosing instance to be built";
        }
        return seen.add(type) ? bean(type, strict, seen) : null;
    }

    private String bean(JavaType type, boolean strict, Set<JavaType> seen) {
        Class<?> raw = type.getRawClass();
        BeanDescription description = mapper().getDeserializationConfig().introspect(type);
        if (!raw.isRecord() && description.findDefaultConstructor() == null && !hasCreator(description)) {
            return raw.getName() + " has neither a no-argument constructor nor a @JsonCreator";
        }
        List<BeanPropertyDefinition> properties = description.findProperties();
        Set<String> writable = new HashSet<>();
        for (BeanPropertyDefinition property : properties) {
            if (property.hasSetter() || property.hasField() || property.hasConstructorParameter()) {
                writable.add(property.getInternalName());
                String why = check(property.getPrimaryType(), strict, seen);
                if (why != null) {
                    return "property '" + property.getName() + "' of " + raw.getName() + ": " + why;
                }
            }
        }
        if (strict) {
            // State Jackson neither writes nor reads back would silently reset on replay.
            for (Class<?> c = raw; c != null && !isJdk(c); c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    int mods = field.getModifiers();
                    if (!Modifier.isStatic(mods) && !Modifier.isTransient(mods) && !field.isSynthetic()
                            && !writable.contains(field.getName())) {
                        return "field '" + field.getName() + "' of " + c.getName() + " would not survive JSON";
                    }
                }
            }
        }
        return null;
    }

    private static boolean hasCreator(BeanDescription description) {
        for (AnnotatedWithParams creator : description.getConstructors()) {
            if (creator.hasAnnotation(JsonCreator.class)) {
                return true;
            }
        }
        for (AnnotatedWithParams creator : description.getFactoryMethods()) {
            if (creator.hasAnnotation(JsonCreator.class)) {
                return true;
            }
        }
        return false;
    }

    private static String collectionClass(Class<?> raw) {
        if (COLLECTION_INTERFACES.contains(raw)) {
            return null;
        }
        if (raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
            return raw.getName() + " is " + (raw.isInterface() ? "an interface" : "abstract")
                    + " that Jackson cannot pick an implementation for";
        }
        try {
            raw.getConstructor();
            return null;
        } catch (NoSuchMethodException e) {
            return raw.getName() + " has no public no-argument constructor";
        }
    }

    private static String in(String where, String why) {
        return why == null ? null : where + ": " + why;
    }

    private static boolean isJdk(Class<?> c) {
        String name = c.getName();
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.") || name.startsWith("sun.");
    }
}
