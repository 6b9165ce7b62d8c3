package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.effectful.core.journal.HexKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzz of the key encoding: a million random (task, actor, verb, target, slot) tuples built
 * from separator-heavy alphabets. Every tuple's material decodes back to exactly that tuple (so no
 * two distinct tuples share a material), and no two distinct tuples share a key.
 */
class IntentKeysFuzzTest {

    private static final long SEED = 20261203L;
    private static final int CASES = 1_000_000;
    /** Separators, escapes, JSON punctuation, an unpaired surrogate, a question mark it once became. */
    private static final String NASTY = "|\\[]\"#,?a\uD800";

    /** A tuple as the engine hands it over; actor and slot null or empty are the same to the key. */
    private record Tuple(String task, String actor, String verb, String target, String slot) {
        Tuple normal() {
            return new Tuple(task, actor == null ? "" : actor, verb, target, slot == null ? "" : slot);
        }
    }

    @Test
    void noTwoDistinctTuplesShareAMaterialOrAKey() {
        Map<Long, Integer> byHighHalf = new HashMap<>(2 * CASES);
        List<String> collisions = new ArrayList<>();
        long[] halves = new long[2];
        for (int i = 0; i < CASES; i++) {
            Tuple t = tuple(i);
            String material = IntentKeys.material(t.task(), t.actor(), t.verb(), t.target(), t.slot());
            assertThat(decode(material)).as("case %d: %s", i, material).isEqualTo(t.normal());
            String key = IntentKeys.derive(t.task(), t.actor(), t.verb(), t.target(), t.slot());
            assertThat(HexKeys.parse(key, halves)).isTrue();
            Integer earlier = byHighHalf.putIfAbsent(halves[0], i);
            if (earlier != null) {
                Tuple other = tuple(earlier);
                boolean sameKey = key.equals(IntentKeys.derive(other.task(), other.actor(), other.verb(), other.target(),
                        other.slot()));
                if (sameKey && !other.normal().equals(t.normal())) {
                    collisions.add(t + " and " + other);
                }
            }
        }
        assertThat(collisions).as("distinct tuples with one key").isEmpty();
    }

    @Test
    void theLegacyJoinCollidesOnTheSameAlphabets() {
        // the fuzz would find the hole the escaping closes: the plain join merges distinct tuples
        Map<String, Tuple> seen = new HashMap<>();
        int merged = 0;
        for (int i = 0; i < 20_000; i++) {
            Tuple t = tuple(i).normal();
            String join = t.task() + '|' + t.actor() + '|' + t.verb() + '|' + t.target() + '|' + t.slot();
            Tuple other = seen.putIfAbsent(join, t);
            if (other != null && !other.equals(t)) {
                merged++;
            }
        }
        assertThat(merged).isPositive();
    }

    /** Tuple {@code i}, rebuilt on demand from the seed so that a million need not be held. */
    private static Tuple tuple(int i) {
        SplittableRandom r = new SplittableRandom(SEED * 31 + i);
        String task = word(r);
        String actor = r.nextInt(4) == 0 ? null : word(r);
        String verb = word(r);
        String target = switch (r.nextInt(4)) {
            case 0 -> "#" + r.nextInt(5);
            case 1 -> word(r); // not one the engine makes: escaped whole
            default -> jsonArray(r);
        };
        String slot = r.nextInt(4) == 0 ? null : word(r);
        return new Tuple(task, actor, verb, target, slot);
    }

    private static String word(SplittableRandom r) {
        StringBuilder sb = new StringBuilder();
        for (int n = r.nextInt(5); n > 0; n--) {
            sb.append(NASTY.charAt(r.nextInt(NASTY.length())));
        }
        return sb.toString();
    }

    /** A JSON array of strings as Jackson writes them: '"' and '\' escaped, '|' and the rest as they are. */
    private static String jsonArray(SplittableRandom r) {
        StringBuilder sb = new StringBuilder("[");
        for (int n = r.nextInt(3); n > 0; n--) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append('"');
            for (char c : word(r).toCharArray()) {
                if (c == '"' || c == '\\') {
                    sb.append('\\');
                }
                sb.append(c);
            }
            sb.append('"');
        }
        return sb.append(']').toString();
    }

    /** The reader the encoding promises: parts up to an unescaped '|', the target by its JSON strings. */
    static Tuple decode(String m) {
        int[] at = {0};
        String task = unescapeUntilBar(m, at);
        String actor = unescapeUntilBar(m, at);
        String verb = unescapeUntilBar(m, at);
        String target;
        if (m.charAt(at[0]) == '\\') {
            at[0]++;
            target = unescapeUntilBar(m, at);
        } else {
            int start = at[0];
            boolean inString = false;
            int i = start;
            for (; ; i++) {
                char c = m.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == '|') {
                    break;
                }
            }
            target = m.substring(start, i);
            at[0] = i + 1;
        }
        String slot = unescapeRest(m, at);
        return new Tuple(task, actor, verb, target, slot);
    }

    private static String unescapeUntilBar(String m, int[] at) {
        StringBuilder sb = new StringBuilder();
        int i = at[0];
        while (true) {
            char c = m.charAt(i);
            if (c == '|') {
                at[0] = i + 1;
                return sb.toString();
            }
            i = unescapeOne(m, i, sb);
        }
    }

    private static String unescapeRest(String m, int[] at) {
        StringBuilder sb = new StringBuilder();
        int i = at[0];
        while (i < m.length()) {
            if (m.charAt(i) == '|') {
                throw new AssertionError("an unescaped '|' in the slot of " + m);
            }
            i = unescapeOne(m, i, sb);
        }
        return sb.toString();
    }

    /** Appends the character (or escape) at {@code i}; returns the index after it. */
    private static int unescapeOne(String m, int i, StringBuilder sb) {
        char c = m.charAt(i);
        if (c != '\\') {
            if (Character.isSurrogate(c)) {
                throw new AssertionError("an unpaired surrogate left in " + Arrays.toString(m.toCharArray()));
            }
            sb.append(c);
            return i + 1;
        }
        char next = m.charAt(i + 1);
        if (next == 'u') {
            sb.append((char) Integer.parseInt(m.substring(i + 2, i + 6), 16));
            return i + 6;
        }
        if (next != '|' && next != '\\') {
            throw new AssertionError("an unknown escape in " + m);
        }
        sb.append(next);
        return i + 2;
    }
}
