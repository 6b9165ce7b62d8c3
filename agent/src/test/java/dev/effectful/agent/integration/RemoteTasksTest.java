package dev.effectful.agent.integration;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The task entry of a remote call: what a caller writes, and what a callee accepts whole or not at all. */
class RemoteTasksTest {

    @Test
    void whatACallerWritesIsWhatACalleeReads() throws Exception {
        Map<String, Object> entry = RemoteTasks.entryOf("ord-7741", "alice", Duration.ofMillis(41_200));

        assertThat(entry).containsExactly(Map.entry("id", "ord-7741"), Map.entry("actor", "alice"),
                Map.entry("budget_ms", 41_200L));
        assertThat(RemoteTasks.parse(entry)).isEqualTo(new RemoteTasks.Entry("ord-7741", "alice", Duration.ofMillis(41_200)));
    }

    @Test
    void noActorIsLeftOutAndReadsAsNone() throws Exception {
        Map<String, Object> entry = RemoteTasks.entryOf("t", "", Duration.ofSeconds(3));

        assertThat(entry).doesNotContainKey("actor");
        assertThat(RemoteTasks.parse(entry).actor()).isEmpty();
    }

    @Test
    void aSpentBudgetStillTravelsAsOneMillisecondSoTheCalleeRefusesByItsFloor() throws Exception {
        assertThat(RemoteTasks.entryOf("t", null, Duration.ZERO)).containsEntry("budget_ms", 1L);
    }

    @Test
    void numbersAsAJsonDecoderLeavesThemAreAccepted() throws Exception {
        for (Object ms : List.of(5, 5L, BigInteger.valueOf(5))) {
            assertThat(RemoteTasks.parse(entry("t", "a", ms)).budget()).isEqualTo(Duration.ofMillis(5));
        }
    }

    @Test
    void anythingNotExactlyAnEntryIsRefusedWhole() {
        Map<String, Object> extra = entry("t", "a", 1000);
        extra.put("admin", true);
        Map<Object, Object> nonStringKey = new HashMap<>(entry("t", "a", 1000));
        nonStringKey.put(7, "x");
        List<Object> bad = List.of(
                "ord-1", List.of("ord-1"), extra, nonStringKey,
                entry(42, "a", 1000), entry(null, "a", 1000), entry(" ", "a", 1000), entry("x".repeat(257), "a", 1000),
                entry("t\n[WARN] forged", "a", 1000), entry("t", 7, 1000), entry("t", "a".repeat(257), 1000),
                entry("t", "a\u0000", 1000), entry("t", "a", null), entry("t", "a", "1000"), entry("t", "a", 0),
                entry("t", "a", -5), entry("t", "a", 1.5), entry("t", "a", 1000.0),
                entry("t", "a", BigInteger.TWO.pow(64)), entry("t", "a", BigInteger.ZERO), entry("t", "a", true));
        for (Object raw : bad) {
            assertThatThrownBy(() -> RemoteTasks.parse(raw)).as("%s", raw).isInstanceOf(RemoteTasks.Malformed.class);
        }
    }

    @Test
    void theReasonNamesTheDefectNeverTheValue() {
        assertThatThrownBy(() -> RemoteTasks.parse(entry("t\n[WARN] forged", "a", 1000)))
                .hasMessage("id holds a control character");
        assertThatThrownBy(() -> RemoteTasks.parse(entry("t", "a", "lots")))
                .hasMessage("budget_ms is not a whole number of milliseconds");
    }

    @Test
    void theLongestIdAndActorAccepted() throws Exception {
        String longest = "x".repeat(RemoteTasks.MAX_TEXT);
        assertThat(RemoteTasks.parse(entry(longest, longest, 1)).id()).hasSize(RemoteTasks.MAX_TEXT);
    }

    private static Map<String, Object> entry(Object id, Object actor, Object budget) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("actor", actor);
        m.put("budget_ms", budget);
        return m;
    }
}
