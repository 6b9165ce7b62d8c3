package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.JsonWarmUpApp;
import dev.effectful.agent.e2e.apps.PlainFirstCallApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine serves a first call of strings, numbers and booleans without loading Jackson
 * (about 500 classes in the agent's loader, which a cold JVM's first call used to wait for). The JVM
 * logs every class it loads to stdout, where the application prints {@code SERVED} once that first
 * call returned: no Jackson class may come before it. The next call, keyed by a record, must then
 * load Jackson and be journaled as before: the laziness defers Jackson, it does not bypass it, and
 * it shows that the log would have caught a Jackson class.
 */
class PlainFirstCallLoadsNoJacksonIT extends ForkedJvmTest {

    private static final String JACKSON = " com.fasterxml.jackson.";

    @EveryJdk
    void aPlainFirstCallIsServedWithoutLoadingJackson(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = ForkedApp.jdk(jdk).main(PlainFirstCallApp.class)
                .jvmArg("-Xlog:class+load=info:stdout")
                .sysprop("effectful.journal.dir", journal)
                .run(tmp.resolve("logs"), Duration.ofSeconds(90));
        List<String> lines = app.stdout().lines().toList();
        int served = indexOf(lines, "SERVED ");
        int complex = indexOf(lines, "COMPLEX ");

        assertThat(served).as("stdout: %s\nstderr: %s", app.stdout(), app.stderr()).isNotNegative();
        assertThat(lines.get(served)).isEqualTo("SERVED guarded");
        assertThat(lines.get(complex)).isEqualTo("COMPLEX guarded");
        // the log is the JVM's own: the agent's classes are in it, so a Jackson class would be too
        assertThat(lines.subList(0, served)).anyMatch(l -> l.contains(" dev.effectful.runtime.engine.CallEngine "));
        assertThat(lines.subList(0, served)).noneMatch(l -> l.contains(JACKSON));
        assertThat(lines.subList(served, complex)).anyMatch(l -> l.contains(" com.fasterxml.jackson.databind.ObjectMapper "));

        JournalContents j = JournalContents.of(journal);
        for (String verb : List.of("plain_notify", "plain_book")) {
            assertThat(j.forCall(verb)).extracting(JournalRecord::type).as(verb)
                    .containsExactly(RecordType.INTENT, RecordType.OUTCOME);
        }
        assertThat(j.forCall("plain_notify")).first().satisfies(intent ->
                assertThat(intent.args()).isEqualTo("{\"to\":\"alice@example.com\",\"times\":3,\"urgent\":true}"));
        assertThat(j.forCall("plain_book")).first().satisfies(intent ->
                assertThat(intent.args()).startsWith("{\"booking\":{").contains("\"room\":\"room-1\"")
                        .contains("\"guests\":[\"ann\",\"bob\"]"));
    }

    @EveryJdk
    void aToolThatNeedsJacksonHasItLoadedInTheBackgroundBeforeItsFirstCall(Jdk jdk) throws Exception {
        Path log = tmp.resolve("classload.log");
        ForkedApp app = ForkedApp.jdk(jdk).main(JsonWarmUpApp.class)
                .jvmArg("-Xlog:class+load=info:file=" + log)
                .sysprop("classload.log", log)
                .sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));
        List<String> lines = app.stdout().lines().toList();
        assertThat(lines).as("stderr: %s", app.stderr())
                .containsSubsequence("SERVED guarded", "WARMED", "COMPLEX guarded");
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
