package dev.effectful.core.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.effectful.core.keys.Fingerprinter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.values.ParamSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CanonicalJsonTest {

    record Address(String zip, String city) {
    }

    record Customer(String name, Address address, Map<String, Integer> scores) {
    }

    public static final class Pojo {
        private final int zeta = 1;
        private final String alpha = "a";

        public int getZeta() {
            return zeta;
        }

        public String getAlpha() {
            return alpha;
        }
    }

    static final class Opaque {
        @SuppressWarnings("unused")
        private final String hidden = "x";
    }

    static final class Node {
        Node next;

        public Node getNext() {
            return next;
        }
    }

    @Test
    void sortsKeysOfMapsRecordsAndPojosAtEveryDepth() throws Exception {
        Map<String, Integer> scores = new LinkedHashMap<>();
        scores.put("z", 1);
        scores.put("a", 2);
        Customer c = new Customer("Ann", new Address("75001", "Paris"), scores);
        assertThat(CanonicalJson.of(c))
                .isEqualTo("{\"address\":{\"city\":\"Paris\",\"zip\":\"75001\"},\"name\":\"Ann\",\"scores\":{\"a\":2,\"z\":1}}");
        assertThat(CanonicalJson.of(new Pojo())).isEqualTo("{\"alpha\":\"a\",\"zeta\":1}");
    }

    @Test
    void mapsRenderTheSameWhateverTheirInsertionOrder() throws Exception {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("b", List.of(1, 2));
        one.put("a", "x");
        Map<String, Object> two = new TreeMap<>(one);
        assertThat(CanonicalJson.of(one)).isEqualTo(CanonicalJson.of(two)).isEqualTo("{\"a\":\"x\",\"b\":[1,2]}");
    }

    @Test
    void setsAreOrderedByContentWhileListsKeepTheirOrder() throws Exception {
        assertThat(CanonicalJson.of(new LinkedHashSet<>(List.of("b", "a", "c"))))
                .isEqualTo(CanonicalJson.of(new LinkedHashSet<>(List.of("c", "b", "a"))))
                .isEqualTo("[\"a\",\"b\",\"c\"]");
        assertThat(CanonicalJson.of(List.of("b", "a"))).isEqualTo("[\"b\",\"a\"]");
    }

    @Test
    void hasNoWhitespace() throws Exception {
        String json = CanonicalJson.of(Map.of("k", List.of(Map.of("x", 1), "a b")));
        assertThat(json).isEqualTo("{\"k\":[{\"x\":1},\"a b\"]}");
    }

    @Test
    void arrayRendersTheValuesInOrder() throws Exception {
        Map<String, Integer> m = new HashMap<>();
        m.put("b", 2);
        m.put("a", 1);
        assertThat(CanonicalJson.array(Arrays.asList("ord-1", m, null, 3)))
                .isEqualTo("[\"ord-1\",{\"a\":1,\"b\":2},null,3]");
        assertThat(CanonicalJson.array(List.of())).isEqualTo("[]");
    }

    @Test
    void numbersRenderByValueInPlainDecimal() throws Exception {
        assertThat(CanonicalJson.of(1)).isEqualTo("1");
        assertThat(CanonicalJson.of(1L)).isEqualTo("1");
        assertThat(CanonicalJson.of(1.0)).isEqualTo("1");
        assertThat(CanonicalJson.of(new BigDecimal("1.00"))).isEqualTo("1");
        assertThat(CanonicalJson.of(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(CanonicalJson.of(new BigDecimal("12.3400"))).isEqualTo("12.34");
        assertThat(CanonicalJson.of(new BigDecimal("0.000001"))).isEqualTo("0.000001");
        assertThat(CanonicalJson.of(0.1f)).isEqualTo("0.1").isEqualTo(CanonicalJson.of(0.1d));
        assertThat(CanonicalJson.of(-0.0)).isEqualTo("0");
        assertThat(CanonicalJson.of(1e20)).isEqualTo("100000000000000000000");
        assertThat(CanonicalJson.of(new BigInteger("123456789012345678901234567890"))).isEqualTo("123456789012345678901234567890");
        assertThat(CanonicalJson.of(new BigDecimal("3.14159265358979323846264338327950288")))
                .isEqualTo("3.14159265358979323846264338327950288");
    }

    @Test
    void refusesNumbersWithoutAFiniteRendering() {
        assertThatThrownBy(() -> CanonicalJson.of(Double.NaN)).isInstanceOf(NotCanonicalException.class);
        assertThatThrownBy(() -> CanonicalJson.of(List.of(Double.POSITIVE_INFINITY))).isInstanceOf(NotCanonicalException.class);
        assertThatThrownBy(() -> CanonicalJson.of(new BigDecimal("1E+999999999")))
                .isInstanceOf(NotCanonicalException.class).hasMessageContaining("plain decimal");
    }

    @Test
    void refusesCycles() {
        Node a = new Node();
        Node b = new Node();
        a.next = b;
        b.next = a;
        assertThatThrownBy(() -> CanonicalJson.of(a))
                .isInstanceOf(NotCanonicalException.class).hasMessageContaining(Node.class.getName());
        List<Object> self = new ArrayList<>();
        self.add(self);
        assertThatThrownBy(() -> CanonicalJson.of(self))
                .isInstanceOf(NotCanonicalException.class).hasMessageContaining("cyclic");
    }

    @Test
    void refusesBeansWithoutProperties() {
        assertThatThrownBy(() -> CanonicalJson.of(new Opaque()))
                .isInstanceOf(NotCanonicalException.class).hasMessageContaining(Opaque.class.getName());
        assertThatThrownBy(() -> CanonicalJson.of(new Object())).isInstanceOf(NotCanonicalException.class);
    }

    @Test
    void refusesMapKeysThatCollideAsText() {
        Map<Object, String> m = new HashMap<>();
        m.put(1, "int");
        m.put("1", "string");
        assertThatThrownBy(() -> CanonicalJson.of(m)).isInstanceOf(NotCanonicalException.class);
    }

    @Test
    void rendersJavaTimeAndOptionalWithoutExtraModules() throws Exception {
        assertThat(CanonicalJson.of(Instant.parse("2024-05-01T10:15:30Z"))).isEqualTo("\"2024-05-01T10:15:30Z\"");
        assertThat(CanonicalJson.of(Optional.of("x"))).isEqualTo("\"x\"");
        assertThat(CanonicalJson.of(Optional.empty())).isEqualTo("null");
    }

    @Test
    void escapesStringsDeterministically() throws Exception {
        assertThat(CanonicalJson.of("a\"b\\c\nd\u0001é")).isEqualTo("\"a\\\"b\\\\c\\nd\\u0001é\"");
    }

    @Test
    void aRephrasedFreeTextArgumentLeavesTheTargetUnchanged(@TempDir Path dir) throws Exception {
        ArgsRenderer renderer = new ArgsRenderer(Fingerprinter.forJournal(dir));
        ParamSpec[] specs = {
            new ParamSpec("to", true, false, false),
            new ParamSpec("subject", false, false, false),
            new ParamSpec("body", false, false, false)};
        ArgsRenderer.KeyParts first = renderer.keyParts(
                new Object[] {"bob@example.com", "Your order", "Hi Bob, your order shipped."}, specs);
        ArgsRenderer.KeyParts retry = renderer.keyParts(
                new Object[] {"bob@example.com", "Order update", "Hello Bob! Good news: it has shipped."}, specs);
        assertThat(retry).isEqualTo(first);
        assertThat(first.target()).isEqualTo("[\"bob@example.com\"]");
    }
}
