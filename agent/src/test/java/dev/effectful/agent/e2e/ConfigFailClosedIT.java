package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.GuardApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: whatever the user gets wrong in the configuration or the journal path, an
 * effectful call never runs unguarded. Real JVMs with the real agent jar; each money tool counts
 * its own body runs, so "refused" is never taken on the agent's word.
 */
class ConfigFailClosedIT {

    private static final Duration RUN = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    private ForkedApp app(Path workDir) throws IOException {
        Files.createDirectories(workDir);
        return ForkedApp.jdk(Jdk.current()).main(GuardApp.class, "once").workDir(workDir)
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    private static long count(String text, String part) {
        return Stream.iterate(text.indexOf(part), i -> i >= 0, i -> text.indexOf(part, i + 1)).count();
    }

    /** The money calls were refused for good naming {@code names}, their bodies never ran, the read ran. */
    private static void refusedForGoodButReadsRun(ForkedApp app, String... names) throws IOException {
        Map<String, String> r = app.results();
        assertThat(r.get("pay")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"").contains(names)
                .contains("the call was not made");
        assertThat(r.get("refund")).startsWith("OUTCOME {\"outcome\":\"permanent\",\"effect_applied\":\"no\"").contains(names);
        assertThat(r).containsEntry("money_bodies", "0").containsEntry("balance", "100");
    }

    private static void loudLineOnce(ForkedApp app, String... names) throws IOException {
        String err = app.stderr();
        assertThat(count(err, "effectful configuration error")).as(err).isEqualTo(1);
        assertThat(err).contains("effectful ERROR: effectful configuration error").contains(names)
                .doesNotContain("agent disabled");
    }

    @Test
    void aBadValueRefusesEveryEffectfulCallNamingTheKeyAndTheNearestValue() throws Exception {
        Path work = tmp.resolve("work");
        Path journal = tmp.resolve("journal");
        ForkedApp app = app(work).agentArgs("journal=" + journal + ",sync=intnet").run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "effectful.sync=intnet", "none, intent", "did you mean intent");
        loudLineOnce(app, "effectful.sync=intnet");
        assertThat(journal).doesNotExist();
    }

    @Test
    void anUnknownKeyRefusesEveryEffectfulCallNamingTheNearestKnownKey() throws Exception {
        Path work = tmp.resolve("work");
        Path x = tmp.resolve("x");
        ForkedApp app = app(work).agentArgs("jurnal=" + x).run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "unknown key 'jurnal'", "did you mean 'journal'");
        loudLineOnce(app, "'jurnal'");
        // neither the misspelt path nor the default ./effectful-journal was created
        assertThat(x).doesNotExist();
        assertThat(work.resolve("effectful-journal")).doesNotExist();
    }

    @Test
    void aSemicolonSeparatorRefusesAndCreatesNoDirectoryNamedAfterTheWholeString() throws Exception {
        Path work = tmp.resolve("work");
        ForkedApp app = app(work).agentArgs("journal=a;sync=intent").run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "malformed agent argument", "did you mean 'journal=a,sync=intent'");
        loudLineOnce(app, "journal=a;sync=intent");
        try (Stream<Path> files = Files.list(work)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void aBadValueFromASystemPropertyFailsClosedToo() throws Exception {
        Path work = tmp.resolve("work");
        ForkedApp app = app(work).sysprop("effectful.journal.dir", tmp.resolve("journal"))
                .sysprop("effectful.retention", "a week").run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "effectful.retention=a week", "from -Deffectful.retention");
        loudLineOnce(app, "effectful.retention");
    }

    @Test
    void anUnknownSystemPropertyIsOneWarningAndCallsAreGuardedNormally() throws Exception {
        Path work = tmp.resolve("work");
        Path journal = tmp.resolve("journal");
        ForkedApp app = app(work).agentArgs("journal=" + journal).sysprop("effectful.sycn", "intent")
                .run(tmp.resolve("logs"), RUN);
        Map<String, String> r = app.results();
        assertThat(r).containsEntry("pay", "paid:o-1").containsEntry("money_bodies", "2").containsEntry("balance", "100");
        String err = app.stderr();
        assertThat(count(err, "-Deffectful.sycn")).as(err).isEqualTo(1);
        assertThat(err).contains("unknown system property -Deffectful.sycn is ignored; did you mean -Deffectful.sync?")
                .doesNotContain("configuration error");
        // guarded: the intent is in the journal before the outcome
        assertThat(JournalContents.of(journal).forCall("pay")).extracting(x -> x.type())
                .containsExactly(RecordType.INTENT, RecordType.OUTCOME);
    }

    static List<Object[]> emptyJournalSettings() {
        List<Object[]> out = new java.util.ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            out.add(new Object[] {jdk, "property"});
            out.add(new Object[] {jdk, "environment"});
        }
        return out;
    }

    /**
     * {@code -Deffectful.journal.dir=} or {@code EFFECTFUL_JOURNAL_DIR=} (an unset {@code $VAR} in a container
     * spec) fails closed like an empty {@code journal=}: no {@code ./effectful-journal} is started, whose
     * history a restart from another directory would lose. A READ runs, and its checked exception still
     * reaches the caller wrapped, as the README says, although nothing is journaled.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("emptyJournalSettings")
    void anEmptyJournalSettingFailsClosedAndNeverUsesTheDefaultDirectory(Jdk jdk, String source) throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        ForkedApp app = ForkedApp.jdk(jdk).main(GuardApp.class, "once_and_timeout").workDir(work)
                .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"));
        String name = source.equals("property") ? "from -Deffectful.journal.dir" : "EFFECTFUL_JOURNAL_DIR";
        app = source.equals("property") ? app.sysprop("effectful.journal.dir", "") : app.env("EFFECTFUL_JOURNAL_DIR", "");
        app.run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "effectful.journal.dir is set but empty", name);
        loudLineOnce(app, "effectful.journal.dir is set but empty");
        assertThat(work.resolve("effectful-journal")).doesNotExist();
        Map<String, String> r = app.results();
        assertThat(r.get("quote")).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"");
        assertThat(r).containsEntry("quote_cause", "java.net.SocketTimeoutException");
    }

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** A retention too long to compute a cut-off with is a configuration error naming the key, not a retryable overflow. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aRetentionTooLongToComputeWithIsAPermanentConfigurationRefusal(Jdk jdk) throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        ForkedApp app = ForkedApp.jdk(jdk).main(GuardApp.class, "once").workDir(work)
                .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                .agentArgs("journal=" + tmp.resolve("journal") + ",retention=99999999999999d").run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "effectful.retention=99999999999999d is too long", "at most 106751d");
        assertThat(app.stderr()).doesNotContain("overflow");
    }

    // ------------------------------------------------------------ the journal directory

    @Test
    void anExistingNonEmptyDirectoryThatIsNoJournalIsRefusedAndItsModeIsUnchanged() throws Exception {
        Path work = tmp.resolve("work");
        Path project = Files.createDirectories(tmp.resolve("project"));
        Files.writeString(project.resolve("build.gradle"), "plugins {}");
        Files.setPosixFilePermissions(project, PosixFilePermissions.fromString("rwxr-x---"));
        var before = Files.getPosixFilePermissions(project);
        ForkedApp app = app(work).agentArgs("journal=" + project).run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "is not empty and holds no Effectful journal", "'build.gradle'",
                "set effectful.journal.dir");
        assertThat(Files.getPosixFilePermissions(project)).isEqualTo(before);
        try (Stream<Path> files = Files.list(project)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("build.gradle");
        }
    }

    @Test
    void theWorkingDirectoryAsJournalIsRefusedAndNotChmodded() throws Exception {
        Path work = tmp.resolve("work");
        Files.createDirectories(work);
        Files.writeString(work.resolve("app.properties"), "x=1");
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxr-xr-x"));
        ForkedApp app = app(work).agentArgs("journal=.").run(tmp.resolve("logs"), RUN);
        refusedForGoodButReadsRun(app, "holds no Effectful journal");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(work))).isEqualTo("rwxr-xr-x");
    }

    @Test
    void anExistingEmptyDirectoryIsUsed() throws Exception {
        Path work = tmp.resolve("work");
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        ForkedApp app = app(work).agentArgs("journal=" + empty).run(tmp.resolve("logs"), RUN);
        assertThat(app.results()).containsEntry("pay", "paid:o-1").containsEntry("money_bodies", "2");
        assertThat(JournalContents.of(empty).forCall("pay")).isNotEmpty();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(empty))).isEqualTo("rwx------");
    }

    @Test
    void aJournalPathThatIsAFileIsRefusedForGood() throws Exception {
        Path work = tmp.resolve("work");
        Path file = Files.writeString(tmp.resolve("journal.txt"), "not a directory");
        for (Path journal : List.of(file, file.resolve("journal"))) {
            ForkedApp app = app(work).agentArgs("journal=" + journal).run(tmp.resolve("logs"), RUN);
            refusedForGoodButReadsRun(app, file.toString(), "is a file, not a directory");
        }
        assertThat(Files.readString(file)).isEqualTo("not a directory");
    }
}
