package dev.effectful.core.journal;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hand-over files in {@code resolutions/} over generated content: whatever a file holds (JSON of any shape,
 * the fields with wrong types, deep nesting, binary garbage, an empty file), {@link ResolutionRequest#read}
 * gives a request whose key is an intent key and whose verdict is one of the allowed words, or refuses with
 * an {@link IOException} carrying a message, and throws nothing else. The engine consumes these files on
 * its watch thread inside the application ({@code ResolutionRequests}): anything else thrown would stop
 * every later verdict from being read, and a request read wrongly would settle an intent no person settled.
 * A request written by {@link ResolutionRequest#submit} always reads back as written.
 */
@AddLifecycleHook(ScaledTries.class)
class ResolutionRequestProperties {

    private static Path dir;

    @BeforeContainer
    static void scratch() throws IOException {
        dir = Files.createTempDirectory("resolution-properties");
    }

    @AfterContainer
    static void removeScratch() throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        }
    }

    private static final String KEY = "0123456789abcdef0123456789abcdef";

    private static Arbitrary<String> jsonValue() {
        return Arbitraries.oneOf(
                Arbitraries.of("null", "true", "false", "0", "-1", "1e400", "9223372036854775808", "\"yes\"", "\"no\"",
                        "\"approved\"", "\"denied\"", "\"" + KEY + "\"", "\"" + KEY.toUpperCase() + "\"", "[]", "{}",
                        "\"\\ud800\"", "\"\"", "\"x\\u0000y\"", "{\"a\":[1,{\"b\":null}]}"),
                Arbitraries.strings().ofMaxLength(20).map(s -> "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""));
    }

    @Provide
    Arbitrary<byte[]> contents() {
        Arbitrary<String> field = Arbitraries.of("intent_key", "applied", "verdict", "note", "result", "force", "task",
                "actor", "call", "kind", "attempt", "attempt_id", "requested_at", "requested_by_pid", "by", "other");
        Arbitrary<String> object = Combinators.combine(field, jsonValue()).as((f, v) -> "\"" + f + "\":" + v)
                .list().ofMaxSize(10).map(l -> "{" + String.join(",", l) + "}");
        Arbitrary<String> nearlyValid = Combinators.combine(Arbitraries.of("yes", "no", "maybe", ""),
                Arbitraries.of("", ",\"verdict\":\"approved\"", ",\"verdict\":\"x\""), jsonValue())
                .as((a, v, note) -> "{\"intent_key\":\"" + KEY + "\",\"applied\":\"" + a + "\"" + v + ",\"note\":" + note + "}");
        Arbitrary<String> deep = Arbitraries.integers().between(1, 5000).map(n -> "[".repeat(n) + "]".repeat(n));
        Arbitrary<String> cut = object.flatMap(o -> Arbitraries.integers().between(0, o.length()).map(i -> o.substring(0, i)));
        return Arbitraries.frequencyOf(
                Tuple.of(4, object.map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(3, nearlyValid.map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(1, deep.map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(2, cut.map(s -> s.getBytes(StandardCharsets.UTF_8))),
                Tuple.of(2, Arbitraries.bytes().array(byte[].class).ofMaxSize(200)));
    }

    @Property(tries = 1500)
    void anyContentIsARequestOrARefusal(@ForAll("contents") byte[] content) throws IOException {
        Path file = dir.resolve(KEY + ".json");
        Files.write(file, content);
        try {
            ResolutionRequest r = ResolutionRequest.read(file);
            assertThat(ResolutionRequest.isKey(r.intentKey())).as("key of %s", r).isTrue();
            assertThat(r.verdict()).isIn(null, "approved", "denied");
        } catch (IOException refused) {
            assertThat(refused.getMessage()).isNotBlank();
        }
    }

    @Property(tries = 1000)
    void aSubmittedRequestReadsBackAsWritten(@ForAll boolean applied, @ForAll("notes") String note,
                                             @ForAll boolean force) throws IOException {
        ResolutionRequest written = new ResolutionRequest(KEY, applied, note, note == null ? null : "\"" + note.length() + "\"",
                force, "t", null, "call", Kind.SEND, 2, "t-01234567-a2", 17L, 4242L, null, null);
        written.submit(dir);
        Path file = ResolutionRequest.file(dir, KEY);
        assertThat(ResolutionRequest.read(file)).isEqualTo(written);
        Files.delete(file);
    }

    @Provide
    Arbitrary<String> notes() {
        return Arbitraries.strings().ofMaxLength(60).injectNull(0.1);
    }
}
