package dev.effectful.it.events;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.it.events.apps.ObservedTools;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code -XX:StartFlightRecording} and nothing else, the recording read back holds one
 * {@code dev.effectful.Attempt} per call with its path and outcome, a {@code dev.effectful.Probe}
 * and a {@code dev.effectful.Refusal} per call not run, in category "Effectful", never the secret.
 */
class JfrIT {

    @TempDir
    Path dir;

    @Test
    void theRecordingHoldsEveryCallsPathOutcomeAndProbe() throws Exception {
        Path recording = dir.resolve("calls.jfr");
        ForkedApp app = Classpaths.plainAppWithoutLibraries(dir, "-XX:StartFlightRecording=filename=" + recording + ",dumponexit=true");
        assertThat(app.results()).containsEntry("probed", "paged:bob");

        List<RecordedEvent> all = RecordingFile.readAllEvents(recording);
        List<RecordedEvent> attempts = ofType(all, "dev.effectful.Attempt");
        assertThat(attempts).extracting(e -> e.getString("verb") + ":" + e.getString("reentry") + ":" + e.getString("outcome"))
                .containsExactly("send_email:new:ok", "send_email:dedup:ok", "notify_customer:new:unknown",
                        "notify_customer:held:unknown", "charge:refused:retryable", "page_on_call:new:unknown",
                        "page_on_call:probe:ok");
        RecordedEvent first = attempts.get(0);
        assertThat(first.getString("task")).isEqualTo("plain-task");
        assertThat(first.getString("kind")).isEqualTo("send");
        assertThat(first.getString("intentKey")).matches("[0-9a-f]{32}");
        assertThat(first.getInt("attempt")).isEqualTo(1);
        assertThat(first.getString("attemptId")).isNotBlank();
        assertThat(first.getString("effectApplied")).isEqualTo("yes");
        assertThat(first.getString("errorType")).isNull();
        assertThat(first.getDuration()).isPositive();
        assertThat(first.getEventType().getCategoryNames()).containsExactly("Effectful");
        assertThat(attempts.get(2).getString("errorType")).isEqualTo("java.lang.IllegalStateException");
        assertThat(attempts.get(4).getLong("deadlineLeftS")).isZero();

        List<RecordedEvent> probes = ofType(all, "dev.effectful.Probe");
        assertThat(probes).singleElement().satisfies(p -> {
            assertThat(p.getString("verb")).isEqualTo("page_on_call");
            assertThat(p.getString("result")).isEqualTo("found");
            assertThat(p.getInt("attempt")).isEqualTo(1);
            assertThat(p.getString("intentKey")).isEqualTo(attempts.get(6).getString("intentKey"));
        });
        assertThat(ofType(all, "dev.effectful.Refusal"))
                .extracting(e -> e.getString("verb") + ":" + e.getString("reentry") + ":" + e.getString("outcome"))
                .containsExactly("notify_customer:held:unknown", "charge:refused:retryable");

        for (RecordedEvent e : all) {
            if (e.getEventType().getName().startsWith("dev.effectful.")) {
                assertThat(e.getEventType().getCategoryNames()).as(e.getEventType().getName()).containsExactly("Effectful");
                assertThat(e.getStackTrace()).as("%s carries no stack trace", e.getEventType().getName()).isNull();
                assertThat(e.getString("task")).as("%s names its task", e.getEventType().getName()).isNotBlank();
                for (ValueDescriptor f : e.getFields()) {
                    Object value = e.getValue(f.getName());
                    assertThat(String.valueOf(value)).doesNotContain(ObservedTools.SECRET);
                }
            }
        }
    }

    private static List<RecordedEvent> ofType(List<RecordedEvent> all, String name) {
        return all.stream().filter(e -> e.getEventType().getName().equals(name))
                .sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime)).toList();
    }
}
