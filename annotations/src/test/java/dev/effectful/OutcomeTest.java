package dev.effectful;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OutcomeTest {

    @Test
    void compactJsonHasTheContractFieldsInOrderAndOmitsAbsentOnes() {
        Outcome<String> o = new Outcome<>(Status.RETRYABLE, EffectApplied.NO, "ord-7741-9c1f04aa-a2", "9c1f04aa", 30L, 42L,
                "503 from POST /orders after 8.1s; no \"body\"", null, List.of());
        assertThat(o.toJson()).isEqualTo("{\"outcome\":\"retryable\",\"effect_applied\":\"no\",\"attempt_id\":\"ord-7741-9c1f04aa-a2\","
                + "\"intent_key\":\"9c1f04aa\",\"retry_after_s\":30,\"deadline_left_s\":42,"
                + "\"message\":\"503 from POST /orders after 8.1s; no \\\"body\\\"\"}");
        assertThat(Outcome.unknown("x\ny").toJson()).isEqualTo("{\"outcome\":\"unknown\",\"effect_applied\":\"unknown\",\"message\":\"x\\ny\"}");
    }

    @Test
    void batchItemsAreListedWithReasons() {
        Outcome<Void> o = Outcome.<Void>permanent("38 of 40 rows written; 1 blocked, 1 unresolved")
                .withEffectApplied(EffectApplied.PARTIAL)
                .withItems(List.of(Outcome.Item.applied("row_12"), Outcome.Item.rejected("row_13", "merged cell"),
                        Outcome.Item.unknown("row_14", null)));
        assertThat(o.toJson()).endsWith("\"items\":[{\"id\":\"row_12\",\"applied\":\"yes\"},"
                + "{\"id\":\"row_13\",\"applied\":\"no\",\"reason\":\"merged cell\"},{\"id\":\"row_14\",\"applied\":\"unknown\"}]}");
        assertThat(o.items().get(1).status()).isEqualTo(Status.PERMANENT);
        assertThat(Outcome.Item.retryable("r", "busy").status()).isEqualTo(Status.RETRYABLE);
    }

    @Test
    void toolOutcomeExceptionMessageIsTheJson() {
        Outcome<Object> o = Outcome.retryable("journal unavailable");
        assertThat(new ToolOutcomeException(o).getMessage()).isEqualTo(o.toJson());
    }
}
