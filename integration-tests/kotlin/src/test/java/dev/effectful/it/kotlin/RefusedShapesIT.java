package dev.effectful.it.kotlin;

import dev.effectful.agent.e2e.EveryJdk;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.ForkedJvmTest;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.core.journal.RecordType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Effectful tools returning a promise the agent cannot follow (a Reactor {@code Flux}, a Kotlin
 * {@code Flow}, a plain {@code Future}): one line each when the class is woven, naming the method and
 * the shape; every call refused permanent with effect no and that reason; the body never runs; nothing
 * journaled ok. A READ tool of such a shape runs.
 */
class RefusedShapesIT extends ForkedJvmTest {

    @EveryJdk
    void everyCallOfARefusedShapeIsRefusedAndItsBodyNeverRuns(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = forked(jdk, journal).main(Class.forName("dev.effectful.it.kotlin.apps.RefusedShapesApp"))
                .run(tmp.resolve("logs"), Duration.ofSeconds(90));
        Map<String, String> r = app.results();
        assertThat(r.get("flux")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                .contains("RefusedTools.sendFlux", "Reactor Flux");
        assertThat(r.get("flow")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                .contains("RefusedTools.sendFlow", "Kotlin Flow");
        assertThat(r.get("future")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                .contains("RefusedTools.sendFuture", "java.util.concurrent.Future");
        assertThat(r).containsEntry("read_flux", "[read:+1]").containsEntry("bodies", "0");

        String stderr = app.stderr();
        for (String line : List.of("RefusedTools.sendFlux: it returns Reactor Flux",
                "RefusedTools.sendFlow: it returns Kotlin Flow",
                "RefusedTools.sendFuture: it returns java.util.concurrent.Future")) {
            assertThat(stderr.lines().filter(l -> l.contains(line)).count()).as(line).isEqualTo(1);
        }
        assertThat(stderr).doesNotContain("RefusedTools.readFlux: it returns");

        JournalContents j = JournalContents.of(journal);
        assertThat(j.of(RecordType.INTENT)).filteredOn(x -> !x.isRead()).isEmpty();
        assertThat(j.of(RecordType.OUTCOME)).filteredOn(x -> !x.isRead()).isEmpty();
    }
}
