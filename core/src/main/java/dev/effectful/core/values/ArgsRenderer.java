package dev.effectful.core.values;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.effectful.core.json.CanonicalJson;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.json.JsonText;
import dev.effectful.core.keys.BeanKeyViews;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.keys.KeySecretException;
import dev.effectful.core.json.NotCanonicalException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Turns a tool call's arguments into what the journal stores ({@link #render}) and into the
 * parts of its intent key ({@link #keyParts}). Both apply the {@code @Redact} rule here, in one
 * place: a redacted argument is never written in plaintext, not even inside the key's target,
 * where its keyed fingerprint stands in for it.
 *
 * <p>Markers written in place of a value:
 * <ul>
 *   <li>{@code "hmac:<32 hex>"}: a redacted argument (see {@link Fingerprinter});
 *   <li>{@code {"$unserializable":"<class name>: <short reason>"}}: Jackson could not render it
 *       (a cycle, a getter that throws, ...);
 *   <li>{@code {"$truncated":<length>,"sha256":"<hex>","head":"<first 200 chars>"}}: its text is
 *       longer than the limit. For a String the text is the string itself (measured before any
 *       serialization, so a 10 MB string costs one hash); for anything else it is the compact JSON
 *       rendering. The SHA-256 is over the whole text in UTF-8. In a call with a {@code @Redact}
 *       argument the journal's record keeps the head redacted and cut before any secret's start
 *       ({@code engine/Redactor#head}): the head may hold a secret the renderer knows nothing of.
 * </ul>
 * An argument with no {@link ParamSpec} (a caller bug) is treated as redacted: safe by default.
 */
public final class ArgsRenderer {

    public static final int DEFAULT_MAX_CHARS_PER_VALUE = 65536;

    /** Only arguments that are not simple values need a generator: the common call loads no Jackson class. */
    private static final class Generators {
        static final JsonFactory WRITER = new JsonFactory();
    }

    private final Fingerprinter fingerprinter;
    private final int maxCharsPerValue;

    public ArgsRenderer(Fingerprinter fingerprinter, int maxCharsPerValue) {
        if (maxCharsPerValue < 1) {
            throw new IllegalArgumentException("maxCharsPerValue must be positive: " + maxCharsPerValue);
        }
        this.fingerprinter = Objects.requireNonNull(fingerprinter, "fingerprinter");
        this.maxCharsPerValue = maxCharsPerValue;
    }

    public ArgsRenderer(Fingerprinter fingerprinter) {
        this(fingerprinter, DEFAULT_MAX_CHARS_PER_VALUE);
    }

    /** The keyed fingerprints this renderer writes for redacted arguments. */
    public Fingerprinter fingerprinter() {
        return fingerprinter;
    }

    /** The arguments as a JSON object {@code {"<paramName>": <json>, ...}} in parameter order; never throws. */
    public String render(Object[] args, ParamSpec[] specs) {
        Object[] values = args == null ? new Object[0] : args;
        String simple = renderSimple(values, specs);
        return simple != null ? simple : renderWithJackson(values, specs);
    }

    /**
     * The common case without a generator: every argument a string within the limit, an integral
     * number, a boolean or null, none redacted. Null when any is not: {@link #renderWithJackson} then.
     */
    private String renderSimple(Object[] values, ParamSpec[] specs) {
        int size = 2;
        for (Object value : values) {
            size += 16 + (value instanceof String s ? s.length() : 0);
        }
        StringBuilder sb = new StringBuilder(size).append('{');
        for (int i = 0; i < values.length; i++) {
            ParamSpec spec = specs != null && i < specs.length && specs[i] != null ? specs[i] : null;
            Object value = values[i];
            if (value != null && (spec == null || spec.redact())
                    || !JsonText.isSimple(value)
                    || value instanceof String s && s.length() > maxCharsPerValue) {
                return null;
            }
            if (i > 0) {
                sb.append(',');
            }
            JsonText.appendQuoted(sb, spec != null && spec.name() != null ? spec.name() : "arg" + i).append(':');
            JsonText.appendSimple(sb, value);
        }
        return sb.append('}').toString();
    }

    /** {@link #render} through Jackson's generator: the reference the simple path must equal. */
    String renderWithJackson(Object[] values, ParamSpec[] specs) {
        StringWriter out = new StringWriter();
        try (JsonGenerator gen = Generators.WRITER.createGenerator(out)) {
            gen.writeStartObject();
            for (int i = 0; i < values.length; i++) {
                ParamSpec spec = specs != null && i < specs.length && specs[i] != null ? specs[i] : null;
                gen.writeFieldName(spec != null && spec.name() != null ? spec.name() : "arg" + i);
                writeValue(gen, values[i], spec == null || spec.redact());
            }
            gen.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toString();
    }

    private void writeValue(JsonGenerator gen, Object value, boolean redact) throws IOException {
        if (value == null) {
            gen.writeNull();
        } else if (redact) {
            String fingerprint;
            try {
                fingerprint = fingerprinter.fingerprint(value);
            } catch (Throwable t) {
                Unserializable.rethrowIfFatal(t);
                // Not the failure's message: it came from the secret's own toString().
                writeUnserializable(gen, value.getClass().getName() + ": redacted value could not be fingerprinted");
                return;
            }
            gen.writeString(fingerprint);
        } else if (value instanceof String s && s.length() > maxCharsPerValue) {
            writeTruncated(gen, s.length(), sha256Hex(s), CappedWriter.headOf(s, s.length()));
        } else if (value instanceof String s) {
            // the common case: no mapper, no capped writer, no digest
            gen.writeString(s);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            gen.writeNumber(((Number) value).longValue());
        } else if (value instanceof Boolean b) {
            gen.writeBoolean(b);
        } else {
            CappedWriter rendering = new CappedWriter(maxCharsPerValue, true);
            try {
                JsonMappers.shared().writeValue(rendering, value);
            } catch (Throwable t) {
                Unserializable.rethrowIfFatal(t);
                writeUnserializable(gen, Unserializable.describe(value, t));
                return;
            }
            if (rendering.exceeded()) {
                writeTruncated(gen, rendering.length(), rendering.sha256Hex(), rendering.head());
            } else {
                gen.writeRawValue(rendering.text());
            }
        }
    }

    private static void writeUnserializable(JsonGenerator gen, String description) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("$unserializable", description);
        gen.writeEndObject();
    }

    private static void writeTruncated(JsonGenerator gen, long length, String sha256, String head) throws IOException {
        gen.writeStartObject();
        gen.writeNumberField("$truncated", length);
        gen.writeStringField("sha256", sha256);
        gen.writeStringField("head", head);
        gen.writeEndObject();
    }

    private static String sha256Hex(String s) {
        return HexFormat.of().formatHex(CappedWriter.sha256().digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * The intent's target and slot.
     *
     * <p>target: {@link CanonicalJson#array} of the {@code @IntentKey} arguments in parameter
     * order, a redacted one replaced by its fingerprint (so the key cannot be brute-forced from a
     * short secret). slot: the {@code @Slot} argument's canonical JSON, a string without its
     * quotes ({@code 2}, {@code reminder-2}); empty when there is none or it is null; several
     * {@code @Slot} arguments give the canonical array of them.
     *
     * @throws NotCanonicalException naming the parameter whose argument has no canonical form
     */
    public KeyParts keyParts(Object[] args, ParamSpec[] specs) throws NotCanonicalException {
        Object[] values = args == null ? new Object[0] : args;
        // first every keyed value (a redacted one that cannot be fingerprinted is refused before
        // any rendering), then the target in parameter order: no lists, no intermediate strings.
        // The keyed values are the arguments themselves, copied only when a redacted one is
        // replaced by its fingerprint.
        Object[] keyed = values;
        boolean any = false;
        boolean hasIntentKey = false;
        boolean hasSlot = false;
        for (int i = 0; i < values.length && specs != null && i < specs.length; i++) {
            ParamSpec spec = specs[i];
            if (spec == null || !(spec.intentKey() || spec.slot())) {
                continue;
            }
            any = true;
            if (spec.intentKey() && values[i] != null && !JsonText.isSimple(values[i])) {
                // a bean is keyed through Jackson anyway; ids and numbers never load the check
                BeanKeyViews.check(values[i], nameOf(spec, i));
            }
            Object value = keyedValue(values[i], spec, i);
            if (value != values[i]) {
                if (keyed == values) {
                    keyed = values.clone();
                }
                keyed[i] = value;
            }
            hasIntentKey |= spec.intentKey();
            hasSlot |= spec.slot();
        }
        if (!any) {
            return new KeyParts("[]", "", false);
        }
        StringBuilder target = new StringBuilder(48).append('[');
        List<Object> slots = hasSlot ? new ArrayList<>() : List.of();
        for (int i = 0; i < keyed.length && i < specs.length; i++) {
            ParamSpec spec = specs[i];
            if (spec == null) {
                continue;
            }
            if (spec.intentKey()) {
                if (target.length() > 1) {
                    target.append(',');
                }
                try {
                    CanonicalJson.append(target, keyed[i]);
                } catch (NotCanonicalException culprit) {
                    throw new NotCanonicalException("@IntentKey parameter '" + nameOf(spec, i)
                            + "' cannot be rendered canonically: " + culprit.getMessage(), culprit);
                }
            }
            if (spec.slot()) {
                slots.add(keyed[i]);
            }
        }
        return new KeyParts(target.append(']').toString(), slot(slots, specs), hasIntentKey);
    }

    /** The value that stands for an argument in the key: itself, or its fingerprint when redacted. */
    private Object keyedValue(Object value, ParamSpec spec, int index) throws NotCanonicalException {
        if (value == null || !spec.redact()) {
            return value;
        }
        try {
            // A non-canonical secret would be fingerprinted through toString(): fine for the
            // journal, but an identity-based toString would key every call differently.
            CanonicalJson.of(value);
            return fingerprinter.fingerprintForKey(value);
        } catch (KeySecretException e) {
            throw e; // names the secret's file and the fix, never the value
        } catch (NotCanonicalException | RuntimeException e) {
            // No cause and no detail: the message could quote the secret.
            throw new NotCanonicalException(role(spec) + " parameter '" + nameOf(spec, index) + "' (@Redact, "
                    + value.getClass().getName() + ") cannot be rendered canonically");
        }
    }

    private static String slot(List<Object> slots, ParamSpec[] specs) throws NotCanonicalException {
        if (slots.isEmpty()) {
            return "";
        }
        List<Object> present = slots.stream().filter(Objects::nonNull).toList();
        if (present.isEmpty()) {
            return "";
        }
        try {
            if (present.size() > 1) {
                // Two repeat counters both matter; dropping one would merge distinct acts.
                return CanonicalJson.array(present);
            }
            String json = CanonicalJson.of(present.get(0));
            return json.length() >= 2 && json.startsWith("\"") && json.endsWith("\"") ? json.substring(1, json.length() - 1) : json;
        } catch (NotCanonicalException e) {
            throw new NotCanonicalException("@Slot parameter '" + slotNames(specs) + "' cannot be rendered canonically: "
                    + e.getMessage(), e);
        }
    }

    private static String slotNames(ParamSpec[] specs) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            if (specs[i] != null && specs[i].slot()) {
                names.add(nameOf(specs[i], i));
            }
        }
        return String.join("', '", names);
    }

    private static String role(ParamSpec spec) {
        return spec.intentKey() ? "@IntentKey" : "@Slot";
    }

    private static String nameOf(ParamSpec spec, int index) {
        return spec.name() != null ? spec.name() : "arg" + index;
    }

    /**
     * @param target canonical JSON array of the {@code @IntentKey} arguments ({@code []} when none)
     * @param slot the rendered {@code @Slot} argument, empty when none
     * @param hasIntentKey whether the tool declares any {@code @IntentKey} parameter; without one
     *     the caller keys by the verb's ordinal in the task instead
     */
    public record KeyParts(String target, String slot, boolean hasIntentKey) {
    }
}
