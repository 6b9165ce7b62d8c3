package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EarlierKeysTest {

    private static final EarlierKeys.Owner MINE = new EarlierKeys.Owner("a|b", null, "charge");
    private static final String EARLIER = "00000000000000000000000000000001";

    private static Optional<IntentState> state(Phase phase, Effect effect) {
        return Optional.of(new IntentState(phase, 1, effect, 0, 7, 0));
    }

    @Test
    void aDoneIntentOfThisTupleKeepsItsEarlierKey() {
        assertThat(EarlierKeys.choose(Optional.empty(), state(Phase.OK, Effect.YES), Optional.of(MINE), MINE, EARLIER))
                .isEqualTo(new EarlierKeys.Choice.Earlier(EARLIER));
        assertThat(EarlierKeys.choose(Optional.empty(), state(Phase.RESOLVED_APPLIED, Effect.YES), Optional.empty(), MINE,
                EARLIER)).isEqualTo(new EarlierKeys.Choice.Earlier(EARLIER));
    }

    @Test
    void anotherTuplesResultUnderTheSameEarlierKeyIsNotThisCalls() {
        EarlierKeys.Owner other = new EarlierKeys.Owner("a", "b|", "charge");
        assertThat(EarlierKeys.choose(Optional.empty(), state(Phase.OK, Effect.YES), Optional.of(other), MINE, EARLIER))
                .isInstanceOf(EarlierKeys.Choice.Current.class);
    }

    @Test
    void anUnresolvedEarlierIntentIsHeldNamingTheResolveCommand() {
        EarlierKeys.Choice c = EarlierKeys.choose(Optional.empty(), state(Phase.INTENDED, Effect.UNKNOWN), Optional.empty(),
                MINE, EARLIER);
        assertThat(c).isInstanceOf(EarlierKeys.Choice.Hold.class);
        assertThat(((EarlierKeys.Choice.Hold) c).message()).contains("journal resolve " + EARLIER + " --applied yes|no");
    }

    @Test
    void noEarlierIntentAFailedOneOrAKnownCurrentKeyGoUnderTheCurrentKey() {
        assertThat(EarlierKeys.choose(Optional.empty(), Optional.empty(), Optional.empty(), MINE, EARLIER))
                .isInstanceOf(EarlierKeys.Choice.Current.class);
        assertThat(EarlierKeys.choose(Optional.empty(), state(Phase.PERMANENT, Effect.NO), Optional.empty(), MINE, EARLIER))
                .isInstanceOf(EarlierKeys.Choice.Current.class);
        assertThat(EarlierKeys.choose(state(Phase.OK, Effect.YES), state(Phase.INTENDED, Effect.UNKNOWN), Optional.empty(),
                MINE, EARLIER)).isInstanceOf(EarlierKeys.Choice.Current.class);
    }

    @TempDir
    Path dir;

    @Test
    void theMarkSaysWhetherTheJournalHeldRecordsWhenThisVersionFirstOpenedIt() throws Exception {
        Path fresh = Files.createDirectories(dir.resolve("fresh"));
        assertThat(KeyFormat.markAtOpen(fresh, false)).isFalse();
        assertThat(KeyFormat.markAtOpen(fresh, true)).as("the first open decides").isFalse();
        Path upgraded = Files.createDirectories(dir.resolve("upgraded"));
        assertThat(KeyFormat.markAtOpen(upgraded, true)).isTrue();
        assertThat(KeyFormat.holdsEarlierKeys(upgraded)).isTrue();
        assertThat(KeyFormat.markAtOpen(upgraded, true)).isTrue();
        assertThat(KeyFormat.holdsEarlierKeys(dir.resolve("none"))).isFalse();
    }
}
