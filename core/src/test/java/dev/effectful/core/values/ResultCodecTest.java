package dev.effectful.core.values;

import dev.effectful.core.json.JsonMappers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResultCodecTest {

    final ResultCodec codec = new ResultCodec(JsonMappers.shared(), 1 << 20);

    enum Color { RED, GREEN }

    record Line(String sku, int qty, BigDecimal price) {
    }

    record Receipt(String id, List<Line> lines, Map<String, Integer> counts, Optional<String> note, Color color,
            Instant at, LocalDate day) {
    }

    public static final class Bean {
        private String name;
        private int size;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public int getSize() {
            return size;
        }

        public void setSize(int size) {
            this.size = size;
        }
    }

    public static final class HiddenState {
        private String name = "n";
        @SuppressWarnings("unused")
        private int counter;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }
    }

    static final class Node {
        Node next;

        public Node getNext() {
            return next;
        }
    }

    interface Shape {
    }

    // Declared return types, read the way the runtime reads them: from a method's signature.
    @SuppressWarnings("unused")
    static final class Signatures {
        String string() { return null; }
        int primitive() { return 0; }
        List<Line> lines() { return null; }
        Map<String, Integer> counts() { return null; }
        Optional<String> maybe() { return null; }
        Receipt receipt() { return null; }
        Color color() { return null; }
        Set<Color> colors() { return null; }
        Line[] array() { return null; }
        ZonedDateTime zoned() { return null; }
        void nothing() { }
        Object object() { return null; }
        Shape shape() { return null; }
        List<Shape> shapes() { return null; }
        List<?> wildcard() { return null; }
        @SuppressWarnings("rawtypes") List raw() { return null; }
        Number number() { return null; }
        CharSequence chars() { return null; }
        Optional<Object> optionalObject() { return null; }
        Map<Object, String> objectKeys() { return null; }
        Bean bean() { return null; }
        HiddenState hidden() { return null; }
        Thread thread() { return null; }
        Collection collection() { return null; }
    }

    record Collection(java.util.Collection<Line> items) {
    }

    static Type returnType(String method) throws NoSuchMethodException {
        return Signatures.class.getDeclaredMethod(method).getGenericReturnType();
    }

    Object roundTrip(Object value, String method) throws Exception {
        ResultCodec.Encoded encoded = codec.encode(value);
        assertThat(encoded.problem()).isNull();
        assertThat(codec.canReplay(returnType(method))).as("canReplay %s", method).isTrue();
        return codec.decode(encoded.json(), returnType(method));
    }

    @Test
    void roundTripsScalars() throws Exception {
        assertThat(roundTrip("héllo \"x\"", "string")).isEqualTo("héllo \"x\"");
        assertThat(roundTrip(42, "primitive")).isEqualTo(42).isInstanceOf(Integer.class);
        assertThat(roundTrip(Color.GREEN, "color")).isSameAs(Color.GREEN);
        ZonedDateTime zoned = ZonedDateTime.parse("2024-03-31T02:30+02:00[Europe/Paris]");
        assertThat(roundTrip(zoned, "zoned")).isEqualTo(zoned);
    }

    @Test
    void roundTripsGenericCollections() throws Exception {
        List<Line> lines = List.of(new Line("a", 1, new BigDecimal("9.90")), new Line("b", 2, new BigDecimal("1E+3")));
        Object decoded = roundTrip(lines, "lines");
        assertThat(decoded).isEqualTo(lines).isInstanceOf(List.class);
        assertThat(((List<?>) decoded).get(0)).isInstanceOf(Line.class);

        Map<String, Integer> counts = Map.of("a", 1, "b", 2);
        assertThat(roundTrip(counts, "counts")).isEqualTo(counts);
        assertThat(roundTrip(Set.of(Color.RED), "colors")).isEqualTo(Set.of(Color.RED));
        Line[] array = {new Line("a", 1, BigDecimal.ONE)};
        assertThat((Line[]) roundTrip(array, "array")).containsExactly(array);
    }

    @Test
    void roundTripsOptional() throws Exception {
        assertThat(codec.encode(Optional.of("x")).json()).isEqualTo("\"x\"");
        assertThat(codec.encode(Optional.empty()).json()).isEqualTo("null");
        assertThat(roundTrip(Optional.of("x"), "maybe")).isEqualTo(Optional.of("x"));
        assertThat(roundTrip(Optional.empty(), "maybe")).isEqualTo(Optional.empty());
    }

    @Test
    void roundTripsARecordWithNestedGenericsOptionalAndTime() throws Exception {
        Receipt receipt = new Receipt("r-1", List.of(new Line("a", 1, new BigDecimal("2.50"))), Map.of("a", 1),
                Optional.empty(), Color.RED, Instant.parse("2024-05-01T10:00:00.123Z"), LocalDate.of(2024, 5, 1));
        assertThat(roundTrip(receipt, "receipt")).isEqualTo(receipt);
        Receipt withNote = new Receipt("r-2", List.of(), Map.of(), Optional.of("gift"), Color.GREEN, null, null);
        assertThat(roundTrip(withNote, "receipt")).isEqualTo(withNote);
    }

    @Test
    void roundTripsAPojo() throws Exception {
        Bean bean = new Bean();
        bean.setName("b");
        bean.setSize(3);
        Bean decoded = (Bean) roundTrip(bean, "bean");
        assertThat(decoded.getName()).isEqualTo("b");
        assertThat(decoded.getSize()).isEqualTo(3);
    }

    @Test
    void voidEncodesAsNull() throws Exception {
        assertThat(codec.encode(null)).isEqualTo(new ResultCodec.Encoded("null", null));
        assertThat(codec.canReplay(returnType("nothing"))).isTrue();
        assertThat(codec.decode("null", returnType("nothing"))).isNull();
    }

    @Test
    void cannotReplayTypesThatSayNothingAboutTheClassToRebuild() throws Exception {
        for (String method : List.of("object", "shape", "shapes", "wildcard", "raw", "number", "chars",
                "optionalObject", "objectKeys", "thread")) {
            assertThat(codec.canReplay(returnType(method))).as(method).isFalse();
        }
    }

    @Test
    void decodeRefusesSuchTypesWithAClearMessage() {
        assertThatThrownBy(() -> codec.decode("{\"a\":1}", returnType("object")))
                .isInstanceOf(UnreplayableTypeException.class)
                .hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> codec.decode("{}", returnType("shape")))
                .isInstanceOf(UnreplayableTypeException.class)
                .hasMessageContaining("interface");
        assertThatThrownBy(() -> codec.decode("[{}]", returnType("shapes")))
                .isInstanceOf(UnreplayableTypeException.class)
                .hasMessageContaining("element");
    }

    @Test
    void stateJacksonDoesNotSeeIsNotReplayableThoughItDecodes() throws Exception {
        assertThat(codec.canReplay(returnType("hidden"))).isFalse();
        assertThat(codec.decode("{\"name\":\"x\"}", returnType("hidden"))).isInstanceOf(HiddenState.class);
    }

    @Test
    void collectionReplaysAsAList() throws Exception {
        Collection c = new Collection(List.of(new Line("a", 1, BigDecimal.TEN)));
        assertThat(roundTrip(c, "collection")).isEqualTo(c);
    }

    @Test
    void anUnserializableResultIsReportedNotThrown() {
        Node node = new Node();
        node.next = new Node();
        node.next.next = node;
        ResultCodec.Encoded encoded = codec.encode(node);
        assertThat(encoded.json()).isNull();
        assertThat(encoded.problem()).startsWith("unserializable: " + Node.class.getName());
    }

    @Test
    void anOversizedResultIsReportedNotStored() {
        ResultCodec small = new ResultCodec(JsonMappers.shared(), 50);
        assertThat(small.encode("x".repeat(51)).problem()).startsWith("too large");
        assertThat(small.encode(List.of("x".repeat(30), "y".repeat(30))).problem()).startsWith("too large");
        assertThat(small.encode(List.of("x".repeat(30))).json()).isEqualTo("[\"" + "x".repeat(30) + "\"]");
    }

    @Test
    void decodeNeverTrustsTypeNamesInTheStoredText() throws Exception {
        Object decoded = codec.decode("{\"@class\":\"java.lang.ProcessBuilder\",\"sku\":\"a\",\"qty\":1}",
                Line.class);
        assertThat(decoded).isEqualTo(new Line("a", 1, null));
    }

    @Test
    void anImmutableResultDecodedTwiceIsTheSameValueAndAMutableOneIsDecodedAfresh() throws Exception {
        Object first = codec.decode("\"queued\"", String.class);
        assertThat(codec.decode("\"queued\"", String.class)).isSameAs(first);
        assertThat(codec.decode("42", Long.class)).isEqualTo(42L);
        // the same text as another type is decoded as that type, never served from the String entry
        assertThat(codec.decode("\"2026-01-02\"", LocalDate.class)).isEqualTo(LocalDate.of(2026, 1, 2));
        assertThat(codec.decode("\"2026-01-02\"", String.class)).isEqualTo("2026-01-02");
        Type listOfString = Receipt.class.getRecordComponents()[1].getGenericType();
        Object list = codec.decode("[{\"sku\":\"a\",\"qty\":1,\"price\":2}]", listOfString);
        Object again = codec.decode("[{\"sku\":\"a\",\"qty\":1,\"price\":2}]", listOfString);
        assertThat(again).isEqualTo(list).isNotSameAs(list);
    }
}
