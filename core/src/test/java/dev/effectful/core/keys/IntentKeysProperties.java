package dev.effectful.core.keys;

import dev.effectful.core.journal.ScaledTries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Intent keys over generated tuples: two different (task, actor, verb, target, slot) tuples never share a
 * key, and the same tuple always gets the same one. A shared key is the worst failure there is: the second
 * call is answered with the first call's result and its effect never happens. The tuples are made of the
 * characters the key's encoding treats specially ({@code |}, {@code \}, {@code [}, {@code #}, {@code "},
 * unpaired and paired surrogates) besides ordinary text, and the pairs are built the way concatenation
 * collisions arise: one string cut into five parts in two different places (the separator moved across a
 * boundary), and one tuple changed in one part. The check is on the key's material ({@link
 * IntentKeys#material}), which must differ whenever the tuples do, and on the key itself. A null actor or
 * slot is the empty string (as documented on {@link IntentKeys#derive}); the ASCII fast path must give the
 * key the text path gives.
 */
@AddLifecycleHook(ScaledTries.class)
class IntentKeysProperties {

    /** Separators and escapes of the key format, surrogates, ordinary text. */
    private static final String[] PIECES = {"|", "|", "\\", "\\|", "[", "]", "#", "\"", "u", "d800", "\uD800", "\uDC00",
            "\uD83D\uDE00", "é", "a", "b", "1", ",", "\\u", "[\"", "\"]", ""};

    private static Arbitrary<String> part() {
        return Arbitraries.of(PIECES).list().ofMaxSize(6).map(l -> String.join("", l));
    }

    /** A target as the engine makes it (a JSON array, an ordinal), or any text. */
    private static Arbitrary<String> target() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, part().map(p -> "[\"" + p + "\"]")),
                Tuple.of(1, Arbitraries.integers().between(0, 20).map(i -> "#" + i)),
                Tuple.of(1, part().map(p -> "[" + p)),
                Tuple.of(3, part()));
    }

    private static Arbitrary<List<String>> tuple() {
        return Combinators.combine(part(), part().injectNull(0.2), part(), target(), part().injectNull(0.3))
                .as(Arrays::asList);
    }

    @Provide
    static Arbitrary<List<List<String>>> twoCutsOfOneString() {
        Arbitrary<String> joined = Arbitraries.of(PIECES).list().ofMinSize(0).ofMaxSize(14).map(l -> String.join("", l));
        return joined.flatMap(s -> {
            Arbitrary<List<String>> cut = Arbitraries.integers().between(0, s.length()).list().ofSize(4)
                    .map(at -> cut(s, at));
            return cut.list().ofSize(2);
        });
    }

    /** {@code s} cut at four places (the character at a cut is dropped when it is a {@code |}, as a join would add it). */
    private static List<String> cut(String s, List<Integer> at) {
        TreeSet<Integer> sorted = new TreeSet<>(at);
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int i : sorted) {
            if (i < from) {
                parts.add("");
                continue;
            }
            parts.add(s.substring(from, i));
            from = i < s.length() && s.charAt(i) == '|' ? i + 1 : i;
        }
        parts.add(s.substring(Math.min(from, s.length())));
        while (parts.size() < 5) {
            parts.add(1, "");
        }
        return parts;
    }

    @Property(tries = 20000)
    void twoCutsOfOneStringShareAKeyOnlyWhenTheyAreOneTuple(@ForAll("twoCutsOfOneString") List<List<String>> cuts) {
        assertDistinctOrSame(cuts.get(0), cuts.get(1));
    }

    @Property(tries = 20000)
    void tuplesThatDifferInOnePartNeverShareAKey(@ForAll("tuples") List<String> t, @ForAll("parts") int which,
                                                 @ForAll("anyPart") String other) {
        List<String> u = new ArrayList<>(t);
        // a target keeps its JSON form when it had one, so the change is inside it
        u.set(which, which == 3 && t.get(3).startsWith("[") ? "[\"" + other + "\"]" : other);
        assertDistinctOrSame(t, u);
        // moving the part's last character to the front of the next part: the classic concatenation collision
        if (which < 4 && t.get(which) != null && !t.get(which).isEmpty()) {
            String p = t.get(which);
            List<String> moved = new ArrayList<>(t);
            moved.set(which, p.substring(0, p.length() - 1));
            moved.set(which + 1, p.charAt(p.length() - 1) + (t.get(which + 1) == null ? "" : t.get(which + 1)));
            assertDistinctOrSame(t, moved);
        }
    }

    @Property(tries = 20000)
    void theSameTupleAlwaysGetsTheSameKey(@ForAll("tuples") List<String> t) {
        String key = key(t);
        assertThat(key).matches("[0-9a-f]{32}");
        assertThat(key(new ArrayList<>(t))).isEqualTo(key);
        // the ASCII fast path and the text path are one function
        assertThat(IntentKeys.deriveFromText(t.get(0), t.get(1), t.get(2), t.get(3), t.get(4))).isEqualTo(key);
        // null actor and slot are the empty string
        assertThat(IntentKeys.derive(t.get(0), orEmpty(t.get(1)), t.get(2), t.get(3), orEmpty(t.get(4)))).isEqualTo(key);
    }

    @Provide
    static Arbitrary<List<String>> tuples() {
        return tuple();
    }

    @Provide
    static Arbitrary<Integer> parts() {
        return Arbitraries.integers().between(0, 4);
    }

    @Provide
    static Arbitrary<String> anyPart() {
        return part();
    }

    private static void assertDistinctOrSame(List<String> a, List<String> b) {
        List<String> na = normal(a);
        List<String> nb = normal(b);
        if (na.get(0) == null || na.get(2) == null || na.get(3) == null || nb.get(0) == null || nb.get(2) == null
                || nb.get(3) == null) {
            return; // task, verb and target are required: no key at all
        }
        String ma = IntentKeys.material(na.get(0), na.get(1), na.get(2), na.get(3), na.get(4));
        String mb = IntentKeys.material(nb.get(0), nb.get(1), nb.get(2), nb.get(3), nb.get(4));
        if (na.equals(nb)) {
            assertThat(key(a)).isEqualTo(key(b));
        } else {
            assertThat(ma).as("material of %s and %s", a, b).isNotEqualTo(mb);
            assertThat(key(a)).as("key of %s and %s", a, b).isNotEqualTo(key(b));
        }
    }

    private static List<String> normal(List<String> t) {
        return Arrays.asList(t.get(0), orEmpty(t.get(1)), t.get(2), t.get(3), orEmpty(t.get(4)));
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String key(List<String> t) {
        return IntentKeys.derive(t.get(0), t.get(1), t.get(2), t.get(3), t.get(4));
    }
}
