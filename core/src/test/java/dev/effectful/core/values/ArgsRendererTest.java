package dev.effectful.core.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.json.NotCanonicalException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class ArgsRendererTest {

    @TempDir
    Path dir;
    Fingerprinter fingerprinter;
    ArgsRenderer renderer;

    @BeforeEach
    void setUp() throws Exception {
        fingerprinter = Fingerprinter.forJournal(dir);
        renderer = new ArgsRenderer(fingerprinter);
    }

    static ParamSpec plain(String name) {
        return new ParamSpec(name, false, false, false);
    }

    static ParamSpec key(String name) {
        return new ParamSpec(name, true, false, false);
    }

    static ParamSpec slot(String name) {
        return new ParamSpec(name, false, true, false);
    }

    static JsonNode parse(String json) throws Exception {
        return JsonMappers.shared().readTree(json);
    }

    static final class Node {
        Node next;

        public Node getNext() {
            return next;
        }
    }

    public static final class Exploding {
        public String getName() {
            throw new IllegalStateException("getter exploded");
        }
    }

    /** A field JSON has no form for: a map with a null key. */
    public static final class HoldsANullKeyMap {
        public java.util.Map<String, String> getLabels() {
            java.util.Map<String, String> labels = new java.util.HashMap<>();
            labels.put(null, "x");
            return labels;
        }
    }

    record Order(String id, int qty) {
    }

    @Test
    void rendersArgumentsByNameInParameterOrder() throws Exception {
        String json = renderer.render(new Object[] {"ord-1", new Order("o", 2), Instant.parse("2024-05-01T10:00:00Z")},
                new ParamSpec[] {plain("id"), plain("order"), plain("at")});
        assertThat(json).isEqualTo("{\"id\":\"ord-1\",\"order\":{\"id\":\"o\",\"qty\":2},\"at\":\"2024-05-01T10:00:00Z\"}");
    }

    @Test
    void nullArgumentsRenderAsNull() throws Exception {
        String json = renderer.render(new Object[] {null, null},
                new ParamSpec[] {plain("a"), new ParamSpec("b", false, false, true)});
        assertThat(json).isEqualTo("{\"a\":null,\"b\":null}");
        assertThat(renderer.render(null, null)).isEqualTo("{}");
    }

    @Test
    void aCyclicObjectBecomesAnUnserializableMarker() throws Exception {
        Node a = new Node();
        a.next = new Node();
        a.next.next = a;
        JsonNode out = parse(renderer.render(new Object[] {a, "fine"}, new ParamSpec[] {plain("node"), plain("other")}));
        assertThat(out.get("node").get("$unserializable").asText()).startsWith(Node.class.getName() + ": ");
        assertThat(out.get("other").asText()).isEqualTo("fine");
    }

    @Test
    void aThrowingGetterBecomesAnUnserializableMarker() throws Exception {
        JsonNode out = parse(renderer.render(new Object[] {new Exploding()}, new ParamSpec[] {plain("x")}));
        assertThat(out.get("x").get("$unserializable").asText())
                .startsWith(Exploding.class.getName() + ": ")
                .contains("getter exploded");
    }

    @Test
    void aBeanWithAnUnserializableFieldBecomesAnUnserializableMarker() throws Exception {
        JsonNode out = parse(renderer.render(new Object[] {new HoldsANullKeyMap()}, new ParamSpec[] {plain("x")}));
        assertThat(out.get("x").get("$unserializable").asText()).startsWith(HoldsANullKeyMap.class.getName() + ": ");
    }

    @Test
    @Timeout(5)
    void aTenMegabyteStringIsTruncatedFast() throws Exception {
        String huge = "x".repeat(10 * 1024 * 1024);
        long start = System.nanoTime();
        JsonNode out = parse(renderer.render(new Object[] {huge}, new ParamSpec[] {plain("body")}));
        long millis = (System.nanoTime() - start) / 1_000_000;
        JsonNode marker = out.get("body");
        assertThat(marker.get("$truncated").asLong()).isEqualTo(huge.length());
        assertThat(marker.get("sha256").asText()).isEqualTo(sha256(huge));
        assertThat(marker.get("head").asText()).isEqualTo("x".repeat(200));
        assertThat(millis).isLessThan(2000);
    }

    @Test
    void aLargeNonStringIsTruncatedWithTheHashOfItsFullRendering() throws Exception {
        ArgsRenderer small = new ArgsRenderer(fingerprinter, 100);
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            numbers.add(i);
        }
        String full = JsonMappers.shared().writeValueAsString(numbers);
        JsonNode marker = parse(small.render(new Object[] {numbers}, new ParamSpec[] {plain("n")})).get("n");
        assertThat(marker.get("$truncated").asLong()).isEqualTo(full.length());
        assertThat(marker.get("sha256").asText()).isEqualTo(sha256(full));
        assertThat(marker.get("head").asText()).isEqualTo(full.substring(0, 200));
        assertThat(parse(small.render(new Object[] {List.of(1, 2)}, new ParamSpec[] {plain("n")})).get("n").toString())
                .isEqualTo("[1,2]");
    }

    @Test
    void aRedactedArgumentNeverAppearsInPlaintext() throws Exception {
        String pin = "4242-secret-pin";
        ParamSpec[] specs = {key("account"), new ParamSpec("pin", true, false, true), plain("note")};
        Object[] args = {"acct-9", pin, "hello"};
        String json = renderer.render(args, specs);
        ArgsRenderer.KeyParts parts = renderer.keyParts(args, specs);
        assertThat(json).doesNotContain(pin).contains(fingerprinter.fingerprint(pin));
        assertThat(parse(json).get("pin").asText()).matches("hmac:[0-9a-f]{32}");
        assertThat(parts.target()).doesNotContain(pin)
                .isEqualTo("[\"acct-9\",\"" + fingerprinter.fingerprint(pin) + "\"]");
        // equal secrets still match, so a retry dedups
        assertThat(renderer.keyParts(new Object[] {"acct-9", pin, "other note"}, specs)).isEqualTo(parts);
    }

    @Test
    void aRedactedStructuredArgumentIsFingerprintedWhole() throws Exception {
        String json = renderer.render(new Object[] {new Order("card-4111", 1)},
                new ParamSpec[] {new ParamSpec("card", false, false, true)});
        assertThat(json).doesNotContain("card-4111").matches("\\{\"card\":\"hmac:[0-9a-f]{32}\"}");
    }

    @Test
    void argumentsWithoutASpecAreTreatedAsRedacted() throws Exception {
        String json = renderer.render(new Object[] {"a", "secret"}, new ParamSpec[] {plain("a")});
        assertThat(json).doesNotContain("secret").contains("\"arg1\":\"hmac:");
    }

    @Test
    void theSlotSeparatesRepeatedActsAndIsRenderedWithoutQuotes() throws Exception {
        ParamSpec[] specs = {key("to"), slot("n"), plain("body")};
        ArgsRenderer.KeyParts first = renderer.keyParts(new Object[] {"bob", 1, "x"}, specs);
        ArgsRenderer.KeyParts second = renderer.keyParts(new Object[] {"bob", 2, "x"}, specs);
        assertThat(first.target()).isEqualTo(second.target()).isEqualTo("[\"bob\"]");
        assertThat(first.slot()).isEqualTo("1");
        assertThat(second.slot()).isEqualTo("2");
        assertThat(renderer.keyParts(new Object[] {"bob", "reminder-2", "x"}, specs).slot()).isEqualTo("reminder-2");
        assertThat(renderer.keyParts(new Object[] {"bob", null, "x"}, specs).slot()).isEmpty();
        assertThat(first.hasIntentKey()).isTrue();
    }

    @Test
    void withoutIntentKeyOrSlotTheKeyPartsSaySo() throws Exception {
        ArgsRenderer.KeyParts parts = renderer.keyParts(new Object[] {"x"}, new ParamSpec[] {plain("x")});
        assertThat(parts).isEqualTo(new ArgsRenderer.KeyParts("[]", "", false));
    }

    @Test
    void anIntentKeyArgumentWithoutCanonicalFormIsRefusedByName() {
        Node a = new Node();
        a.next = a;
        ParamSpec[] specs = {key("id"), key("graph")};
        assertThatThrownBy(() -> renderer.keyParts(new Object[] {"ok", a}, specs))
                .isInstanceOf(NotCanonicalException.class)
                .hasMessageContaining("'graph'");
        assertThatThrownBy(() -> renderer.keyParts(new Object[] {Double.NaN}, new ParamSpec[] {key("price")}))
                .isInstanceOf(NotCanonicalException.class)
                .hasMessageContaining("'price'");
    }

    @Test
    void aRedactedIntentKeyWithoutCanonicalFormIsRefusedWithoutQuotingIt() {
        Object secret = new Object() {
            @Override
            public String toString() {
                return "hunter2";
            }
        };
        assertThatThrownBy(() -> renderer.keyParts(new Object[] {secret}, new ParamSpec[] {new ParamSpec("pw", true, false, true)}))
                .isInstanceOf(NotCanonicalException.class)
                .hasMessageContaining("'pw'")
                .hasMessageNotContaining("hunter2")
                .hasNoCause();
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
