package dev.effectful.agent.installer;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The byte search every class loaded passes: it must find the descriptor wherever it stands, and nothing else. */
class AnnotationPrefilterTest {

    /** The plain search the fast one must agree with. */
    private static boolean naive(byte[] text, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= text.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (text[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void findsTheDescriptorAtEveryPositionAndAgreesWithAPlainSearch() {
        Random random = new Random(20261207);
        byte[] d = AnnotationPrefilter.DESCRIPTOR;
        byte[] h = AnnotationPrefilter.HIDDEN_CLASS_DEFINER;
        // texts made of the needles' own bytes, so near misses (a prefix, a suffix, one byte off) are common
        byte[] alphabet = "Ldev/effectful/EffectfulTool;defineHiddenClass".getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 20_000; round++) {
            byte[] text = new byte[random.nextInt(120)];
            for (int i = 0; i < text.length; i++) {
                text[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            if (round % 3 == 0 && text.length >= d.length) {
                System.arraycopy(d, 0, text, random.nextInt(text.length - d.length + 1), d.length);
            }
            if (round % 5 == 0 && text.length >= h.length) {
                System.arraycopy(h, 0, text, random.nextInt(text.length - h.length + 1), h.length);
            }
            if (round % 7 == 0 && text.length >= d.length) {
                byte[] off = d.clone();
                off[random.nextInt(off.length)] ^= 1;
                System.arraycopy(off, 0, text, random.nextInt(text.length - d.length + 1), d.length);
            }
            assertThat(AnnotationPrefilter.mayHoldTool(text)).as("round %d", round).isEqualTo(naive(text, d));
            assertThat(AnnotationPrefilter.mayDefineHiddenClasses(text)).as("round %d", round).isEqualTo(naive(text, h));
        }
    }

    @Test
    void atTheEdgesOfTheClassFile() {
        byte[] d = AnnotationPrefilter.DESCRIPTOR;
        assertThat(AnnotationPrefilter.mayHoldTool(d)).isTrue();
        assertThat(AnnotationPrefilter.mayHoldTool(java.util.Arrays.copyOf(d, d.length - 1))).isFalse();
        assertThat(AnnotationPrefilter.mayHoldTool(java.util.Arrays.copyOfRange(d, 1, d.length))).isFalse();
        assertThat(AnnotationPrefilter.mayHoldTool(new byte[0])).isFalse();
        assertThat(AnnotationPrefilter.mayHoldTool(null)).isFalse();
        byte[] end = new byte[100 + d.length];
        System.arraycopy(d, 0, end, 100, d.length);
        assertThat(AnnotationPrefilter.mayHoldTool(end)).isTrue();
    }
}
