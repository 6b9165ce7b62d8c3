package dev.effectful.core.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.effectful.core.json.CanonicalJson;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.json.JsonText;
import dev.effectful.core.json.NotCanonicalException;
import dev.effectful.core.keys.Fingerprinter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-call paths that write strings, integral numbers, booleans and null without a Jackson
 * generator ({@link JsonText}) write exactly what the generator writes: the journal's args and
 * results, and the intent keys derived from the target, must not move by a byte. Every char is
 * tried, then random strings of unicode, surrogates (paired and not) and escapes.
 */
class SimpleValuesTextTest {

    private static final JsonFactory FACTORY = new JsonFactory();

    @TempDir
    Path dir;
    ArgsRenderer renderer;
    ResultCodec codec;

    @BeforeEach
    void setUp() throws Exception {
        renderer = new ArgsRenderer(Fingerprinter.forJournal(dir), 100);
        codec = new ResultCodec(JsonMappers.shared(), 200);
    }

    /** What Jackson's generator writes for one value: the reference. */
    private static String generated(Object value) throws Exception {
        StringWriter out = new StringWriter();
        try (JsonGenerator gen = FACTORY.createGenerator(out)) {
            writeTo(gen, value);
        }
        return out.toString();
    }

    private static void writeTo(JsonGenerator gen, Object value) throws Exception {
        if (value == null) {
            gen.writeNull();
        } else if (value instanceof String s) {
            gen.writeString(s);
        } else if (value instanceof Boolean b) {
            gen.writeBoolean(b);
        } else {
            gen.writeNumber(((Number) value).longValue());
        }
    }

    static List<Object> values() {
        List<Object> values = new ArrayList<>();
        for (int c = 0; c <= 0xFFFF; c++) {
            values.add(String.valueOf((char) c));
            values.add("a" + (char) c + "b");
        }
        Random random = new Random(21);
        String alphabet = "aZ09 \"\\/\n\r\t\b\f\u0000\u001f\u007f\u0080é€\u2028\u2029\uFEFF\uD83D\uDE00\uD800\uDFFF";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                sb.append(random.nextInt(4) == 0 ? (char) random.nextInt(0x10000)
                        : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            values.add(sb.toString());
        }
        values.addAll(List.of("", "plain-id-42", "t0-17@example.com", "ünïcödé", "日本語", "emoji \uD83D\uDE00",
                Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, Long.MIN_VALUE, Long.MAX_VALUE, (short) -7,
                Short.MAX_VALUE, (byte) -128, Byte.MAX_VALUE, true, false));
        values.add(null);
        return values;
    }

    @Test
    void jsonTextIsWhatTheGeneratorWrites() throws Exception {
        com.fasterxml.jackson.core.io.JsonStringEncoder encoder = com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance();
        for (Object v : values()) {
            assertThat(JsonText.simple(v)).as("%s", v).isEqualTo(generated(v));
            if (v instanceof String s) {
                // what intent keys hashed before: the encoder's quoting of every string
                assertThat(JsonText.simple(v)).isEqualTo('"' + new String(encoder.quoteAsString(s)) + '"');
            }
        }
    }

    @Test
    void renderedArgsAreTheJacksonPathsByteForByte() throws Exception {
        ParamSpec[] specs = {new ParamSpec("to", true, false, false), new ParamSpec("subject\u00e9\"", false, false, false),
                new ParamSpec(null, false, false, false)};
        List<Object> values = values();
        for (int i = 0; i < values.size(); i++) {
            Object[] args = {values.get(i), values.get((i * 7 + 1) % values.size()), 3};
            assertThat(renderer.render(args, specs)).isEqualTo(renderer.renderWithJackson(args, specs));
        }
        // what the simple path leaves to Jackson: too long, redacted, not simple
        Object[][] others = {{"x".repeat(101), "s", 1}, {"a", 1.5d, 'c'}, {Map.of("k", "v"), null, 2L}};
        for (Object[] args : others) {
            assertThat(renderer.render(args, specs)).isEqualTo(renderer.renderWithJackson(args, specs));
        }
        ParamSpec[] redacted = {new ParamSpec("card", false, false, true)};
        assertThat(renderer.render(new Object[] {"4111-1111"}, redacted))
                .isEqualTo(renderer.renderWithJackson(new Object[] {"4111-1111"}, redacted)).contains("hmac:");
        assertThat(renderer.render(new Object[0], new ParamSpec[0])).isEqualTo("{}");
    }

    @Test
    void encodedResultsAreTheMappersByteForByte() {
        for (Object v : values()) {
            assertThat(codec.encode(v)).as("%s", v).isEqualTo(codec.encodeWithJackson(v));
        }
        // a string within the limit whose escapes take it past: too large on both paths
        String escapes = "\n".repeat(150);
        assertThat(codec.encode(escapes)).isEqualTo(codec.encodeWithJackson(escapes));
        assertThat(codec.encode(escapes).problem()).startsWith("too large");
    }

    @Test
    void keyTargetsAreTheGeneratorsArrays() throws Exception {
        ParamSpec[] specs = {new ParamSpec("a", true, false, false), new ParamSpec("b", false, false, false),
                new ParamSpec("c", true, false, false)};
        List<Object> values = values();
        for (int i = 0; i < values.size(); i++) {
            Object first = values.get(i);
            Object second = values.get((i * 13 + 5) % values.size());
            StringWriter expected = new StringWriter();
            try (JsonGenerator gen = FACTORY.createGenerator(expected)) {
                gen.writeStartArray();
                writeTo(gen, first);
                writeTo(gen, second);
                gen.writeEndArray();
            }
            ArgsRenderer.KeyParts parts = renderer.keyParts(new Object[] {first, "ignored", second}, specs);
            assertThat(parts.target()).isEqualTo(expected.toString());
            assertThat(parts.target()).isEqualTo(CanonicalJson.array(java.util.Arrays.asList(first, second)));
        }
    }

    @Test
    void aTargetThatIsNotCanonicalStillNamesItsParameter() {
        ParamSpec[] specs = {new ParamSpec("ok", true, false, false), new ParamSpec("amount", true, false, false)};
        assertThatThrownBy(() -> renderer.keyParts(new Object[] {"x", Double.NaN}, specs))
                .isInstanceOf(NotCanonicalException.class)
                .hasMessageStartingWith("@IntentKey parameter 'amount' cannot be rendered canonically: ");
        ParamSpec[] none = {new ParamSpec("b", false, false, false)};
        try {
            assertThat(renderer.keyParts(new Object[] {"x"}, none)).isEqualTo(new ArgsRenderer.KeyParts("[]", "", false));
        } catch (NotCanonicalException e) {
            throw new AssertionError(e);
        }
    }
}
