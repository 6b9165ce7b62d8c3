package dev.effectful.store.postgres;

import dev.effectful.core.reentry.Phase;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The SQL's phase words are the journal's: every phase is a safe SQL literal of its own word, and each
 * list the queries filter on holds exactly the phases the journal's rule names, so a phase added to
 * {@link Phase} is written, counted and kept by the store without a query being touched.
 */
class PhaseWordsTest {

    @Test
    void everyPhaseIsALiteralOfItsWordAndEveryListFollowsTheRule() {
        for (Phase p : Phase.values()) {
            assertThat(p.word()).as("%s: nothing to escape in SQL", p).matches("[a-z_]+");
            assertThat(PhaseWords.literal(p)).isEqualTo("'" + p.word() + "'");
            assertThat(Phase.fromWord(p.word())).isEqualTo(p);
            assertThat(PhaseWords.UNRESOLVED.contains(PhaseWords.literal(p))).as("%s unresolved", p).isEqualTo(p.unresolved());
            assertThat(PhaseWords.SETTLED_OK.contains(PhaseWords.literal(p))).as("%s settled ok", p).isEqualTo(p.settledOk());
        }
        assertThat(PhaseWords.UNRESOLVED).isEqualTo("('intended', 'unknown', 'probe_failed')");
        assertThat(PhaseWords.SETTLED_OK).isEqualTo("('ok', 'resolved_applied')");
        assertThat(Arrays.asList(PhaseWords.INTENDED, PhaseWords.RETRYABLE, PhaseWords.AWAITING_APPROVAL))
                .containsExactly("'intended'", "'retryable'", "'awaiting_approval'");
    }
}
