package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BatchSummaryTest {

    private static List<Outcome.Item> items(int yes, Outcome.Item... others) {
        List<Outcome.Item> l = new ArrayList<>();
        for (int i = 0; i < yes; i++) {
            l.add(Outcome.Item.applied("r" + i));
        }
        l.addAll(List.of(others));
        return l;
    }

    @Test
    void someBlockedSomeUnresolvedIsPermanentAndPartial() {
        BatchSummary s = BatchSummary.of(items(38, Outcome.Item.rejected("x", "merged cell"), Outcome.Item.unknown("y", null)), "rows");
        assertThat(s).isEqualTo(new BatchSummary(Status.PERMANENT, EffectApplied.PARTIAL, "38 of 40 rows written; 1 blocked, 1 unresolved"));
    }

    @Test
    void allAppliedIsOk() {
        assertThat(BatchSummary.of(items(3), "rows")).isEqualTo(new BatchSummary(Status.OK, EffectApplied.YES, "3 of 3 rows written"));
    }

    @Test
    void noneAppliedIsNoOrUnknown() {
        assertThat(BatchSummary.of(items(0, Outcome.Item.retryable("a", "busy")), "rows"))
                .isEqualTo(new BatchSummary(Status.RETRYABLE, EffectApplied.NO, "0 of 1 rows written; 1 to retry"));
        assertThat(BatchSummary.of(items(0, Outcome.Item.unknown("a", null)), "rows").effect()).isEqualTo(EffectApplied.UNKNOWN);
    }
}
