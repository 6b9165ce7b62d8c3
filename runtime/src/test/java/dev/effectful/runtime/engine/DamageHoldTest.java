package dev.effectful.runtime.engine;

import dev.effectful.core.journal.CycleFileScan;
import dev.effectful.core.journal.RecordDamage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A record its writer left half written holds nothing; an overwritten one whose task is unknown holds every call. */
class DamageHoldTest {

    @TempDir
    Path dir;

    @Test
    void aTornRecordHoldsNoCallAnOverwrittenOneHoldsEvery() {
        RecordDamage torn = RecordDamage.inFile("20260101F.cq4", new CycleFileScan.Bad(4096, 0x1234, true));
        RecordDamage zeroed = RecordDamage.inFile("20260101F.cq4", new CycleFileScan.Bad(8192, 0x5678, false));
        assertThat(torn.torn()).isTrue();
        assertThat(torn.describe()).contains("half written", "never acted on");
        assertThat(zeroed.torn()).isFalse();

        DamageHold onlyTorn = new DamageHold(dir, () -> List.of(torn));
        assertThat(onlyTorn.holdFor("t-1", "0123456789abcdef0123456789abcdef")).isEmpty();
        assertThat(onlyTorn.unacknowledged()).isFalse();

        DamageHold both = new DamageHold(dir, () -> List.of(torn, zeroed));
        assertThat(both.holdFor("t-1", "0123456789abcdef0123456789abcdef")).get().asString()
                .contains("whose task cannot be read");
    }
}
