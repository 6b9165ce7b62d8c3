package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.Http;
import dev.effectful.agent.e2e.apps.loading.EarlierAgent;
import dev.effectful.agent.e2e.apps.loading.LoadingApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tools the agent's class-file transformer does not see on its own, each in a real JVM (JDK 17 and 25)
 * with the real agent jar, a real journal and the loopback ledger counting every effect: an
 * application CDS archive (and a JDK 25 AOT cache) dumped without the agent, another agent's premain
 * loading a tool class first, lambdas, method references and hidden classes, and a child-first loader
 * with its own copy of the API. Each is guarded (one effect per intent) or refused permanent naming the fix.
 */
class LoadingHolesIT {

    private static final Path TEST_CLASSES = Path.of("target/test-classes").toAbsolutePath();
    private static final String APPS = "dev/effectful/agent/e2e/apps/";

    @TempDir
    static Path shared;
    @TempDir
    Path tmp;

    private static Path appJar;
    private static Path earlierAgentJar;
    private static String annotationsJar;
    private EffectLedger ledger;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /** CDS archives only take jars: the application's classes are jarred, the earlier agent gets its own jar. */
    @BeforeAll
    static void jars() throws IOException {
        annotationsJar = IsolationIT.lib("effectful-annotations.jar");
        appJar = shared.resolve("loading-app.jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(appJar)); Stream<Path> files = Files.list(TEST_CLASSES.resolve(APPS + "loading"))) {
            for (Path p : files.toList()) {
                add(jar, APPS + "loading/" + p.getFileName());
            }
            add(jar, APPS + Http.class.getSimpleName() + ".class");
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), EarlierAgent.class.getName());
        earlierAgentJar = shared.resolve("earlier-agent.jar");
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(earlierAgentJar), manifest)) {
            add(jar, EarlierAgent.class.getName().replace('.', '/') + ".class");
        }
    }

    private static void add(JarOutputStream jar, String entry) throws IOException {
        jar.putNextEntry(new JarEntry(entry));
        Files.copy(TEST_CLASSES.resolve(entry), jar);
        jar.closeEntry();
    }

    @AfterEach
    void stopLedger() {
        if (ledger != null) {
            ledger.close();
        }
    }

    private String classPath() {
        return appJar + File.pathSeparator + annotationsJar;
    }

    private ForkedApp app(Jdk jdk, Path journal) throws IOException {
        if (ledger == null) {
            ledger = new EffectLedger();
        }
        return ForkedApp.jdk(jdk).classPath(classPath())
                .sysprop("effectful.journal.dir", journal)
                .sysprop("ledger", ledger.url())
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"));
    }

    /** A training run: the application alone (the JVM refuses to dump an archive with an agent), its own ledger. */
    private void train(Jdk jdk, String... archiveFlags) throws Exception {
        try (EffectLedger training = new EffectLedger()) {
            ForkedApp run = ForkedApp.jdk(jdk).withoutAgent().classPath(classPath()).sysprop("ledger", training.url())
                    .main(LoadingApp.class, "send");
            for (String flag : archiveFlags) {
                run.jvmArg(flag);
            }
            run.run(tmp.resolve("training"), Duration.ofSeconds(120));
            assertThat(training.effects("send", "bob")).as("without the agent nothing is guarded").isEqualTo(2);
        }
    }

    /** The tool ran once for its two calls, the repeat answered from the journal, in the task the application opened. */
    private void sentOnce(ForkedApp app, Path journal) throws IOException {
        Map<String, String> r = app.results();
        String context = "stdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr();
        assertThat(r.get("send_1")).as(context).isEqualTo("done:send:bob");
        assertThat(r.get("send_2")).as(context).isEqualTo("done:send:bob");
        assertThat(ledger.effects("send", "bob")).as("bodies run for one intent: " + context).isEqualTo(1);
        List<JournalRecord> intents = JournalContents.of(journal).forCall("send").stream()
                .filter(x -> x.type() == RecordType.INTENT).toList();
        assertThat(intents).as(context).singleElement().satisfies(i -> assertThat(i.task()).isEqualTo("t-send"));
        assertThat(JournalContents.of(journal).forCall("send")).filteredOn(x -> x.type() == RecordType.DEDUP).isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aCdsArchiveDumpedWithoutTheAgentStillHasTaskOpenSeen(Jdk jdk) throws Exception {
        Path archive = tmp.resolve("app.jsa");
        train(jdk, "-XX:ArchiveClassesAtExit=" + archive);
        assertThat(archive).exists();
        Path journal = tmp.resolve("journal");
        ForkedApp app = app(jdk, journal).jvmArg("-XX:SharedArchiveFile=" + archive).main(LoadingApp.class, "send")
                .run(tmp.resolve("out"), Duration.ofSeconds(120));
        assertThat(app.results().get("task_loader")).as("the application's Task came from the archive, in its own loader")
                .contains("AppClassLoader");
        sentOnce(app, journal);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void anAotCacheLoadsToolClassesBeforeTheAgentAndTheyAreStillGuarded(Jdk jdk) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(!jdk.name().equals("jdk17"), "the AOT cache is JDK 24+");
        Path config = tmp.resolve("app.aotconf");
        Path cache = tmp.resolve("app.aot");
        // java.instrument in the training run too, or the production run with an agent cannot use the cache
        train(jdk, "-XX:AOTMode=record", "-XX:AOTConfiguration=" + config, "--add-modules", "java.instrument");
        ForkedApp.jdk(jdk).withoutAgent().classPath(classPath()).jvmArg("-XX:AOTMode=create")
                .jvmArg("-XX:AOTConfiguration=" + config).jvmArg("-XX:AOTCache=" + cache)
                .jvmArg("--add-modules").jvmArg("java.instrument").main(LoadingApp.class, "send")
                .run(tmp.resolve("create"), Duration.ofSeconds(180));
        assertThat(cache).exists();
        Path journal = tmp.resolve("journal");
        // AOTMode=on: the JVM exits rather than run without the cache, so this run did use it
        ForkedApp app = app(jdk, journal).jvmArg("-XX:AOTMode=on").jvmArg("-XX:AOTCache=" + cache)
                .jvmArg("-Xlog:class+load=info:file=" + tmp.resolve("classes.log"))
                .main(LoadingApp.class, "send").run(tmp.resolve("out"), Duration.ofSeconds(120));
        assertThat(Files.readAllLines(tmp.resolve("classes.log"))).as("the tool class came from the cache, before the agent")
                .anyMatch(l -> l.contains(" dev.effectful.agent.e2e.apps.loading.LoadingTools$Sender source: shared objects file"));
        assertThat(app.results().get("task_loader")).contains("AppClassLoader");
        sentOnce(app, journal);
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aToolClassAnEarlierAgentLoadedIsRewrittenAtPremain(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        String loaded = LoadingApp.class.getName().replace("LoadingApp", "LoadingTools$Sender") + ",dev.effectful.Task";
        ForkedApp app = app(jdk, journal).withoutAgent()
                .jvmArg("-javaagent:" + earlierAgentJar + "=" + loaded)
                .jvmArg("-javaagent:" + ForkedApp.AGENT_JAR)
                .main(LoadingApp.class, "send").run(tmp.resolve("out"), Duration.ofSeconds(120));
        assertThat(app.stdout()).contains("EARLIER-AGENT loaded ");
        assertThat(app.results().get("task_loader")).as("the earlier agent loaded the API from the application's jar")
                .contains("AppClassLoader");
        sentOnce(app, journal);
        assertThat(app.stderr()).doesNotContain("UNGUARDED");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aHiddenToolClassAnEarlierAgentDefinedIsNamedInOneLoudLine(Jdk jdk) throws Exception {
        ForkedApp app = app(jdk, tmp.resolve("journal")).withoutAgent()
                .jvmArg("-javaagent:" + earlierAgentJar + "=hidden")
                .jvmArg("-javaagent:" + ForkedApp.AGENT_JAR)
                .main(LoadingApp.class, "send").run(tmp.resolve("out"), Duration.ofSeconds(120));
        assertThat(app.stderr().lines().filter(l -> l.startsWith("effectful ERROR: ")))
                .as("nothing can rewrite it: said once, with the fix").singleElement().asString()
                .contains("HiddenMailer").contains("run UNGUARDED").contains("put -javaagent:effectful-agent.jar first");
        sentOnce(app, tmp.resolve("journal"));
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aHiddenToolClassDefinedAsMainsFirstActIsGuarded(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        // main ends at once: a line said only after the fact (or never, once the JVM is gone) would not do
        ForkedApp app = app(jdk, journal).main(LoadingApp.class, "hidden-first").run(tmp.resolve("out"),
                Duration.ofSeconds(120));
        String context = "stdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr();
        assertThat(app.results()).as(context).containsEntry("hidden_1", "done:hidden_mail:h-2")
                .containsEntry("hidden_2", "done:hidden_mail:h-2");
        assertThat(ledger.effects("hidden_mail", "h-2")).as("guarded: the repeat is answered from the journal; " + context)
                .isEqualTo(1);
        assertThat(JournalContents.of(journal).forCall("mail")).filteredOn(x -> x.type() == RecordType.INTENT)
                .singleElement().satisfies(i -> assertThat(i.task()).isEqualTo("t-hidden-first"));
        assertThat(app.stderr()).doesNotContain("UNGUARDED");
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void lambdasMethodReferencesAndHiddenClassesAreGuarded(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = app(jdk, journal).main(LoadingApp.class, "lambdas").run(tmp.resolve("out"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();
        String context = "stdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr();
        assertThat(r).as(context).containsEntry("lambda_1", "done:pay_lambda:o-1").containsEntry("lambda_2", "done:pay_lambda:o-1")
                .containsEntry("reference_1", "done:pay_ref:o-2").containsEntry("reference_2", "done:pay_ref:o-2")
                .containsEntry("hidden_1", "done:hidden_mail:h-1").containsEntry("hidden_2", "done:hidden_mail:h-1")
                .containsEntry("lambda_equals_itself", "true");
        assertThat(ledger.effects("pay_lambda", "o-1")).as("a lambda of an annotated interface: " + context).isEqualTo(1);
        assertThat(ledger.effects("pay_ref", "o-2")).as("a method reference: " + context).isEqualTo(1);
        assertThat(ledger.effects("hidden_mail", "h-1")).as("a hidden class's own tool: " + context).isEqualTo(1);
        JournalContents j = JournalContents.of(journal);
        assertThat(j.forCall("pay")).filteredOn(x -> x.type() == RecordType.INTENT).hasSize(2)
                .allSatisfy(i -> assertThat(i.task()).isEqualTo("t-lambdas"));
        assertThat(j.forCall("mail")).filteredOn(x -> x.type() == RecordType.INTENT).singleElement()
                .satisfies(i -> assertThat(i.task()).isEqualTo("t-lambdas"));
        assertThat(app.stderr().lines().filter(l -> !JvmWarnings.isJvmFlagWarning(jdk, l))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aChildFirstLoaderWithItsOwnApiCopyIsRefusedPermanentNamingTheJar(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = app(jdk, journal).classPath(appJar.toString())
                .main(LoadingApp.class, "child-first", appJar.toString(), annotationsJar)
                .run(tmp.resolve("out"), Duration.ofSeconds(120));
        Map<String, String> r = app.results();
        String context = "stdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr();
        for (String call : List.of("send_1", "send_2")) {
            assertThat(r.get(call)).as(context).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                    .contains(annotationsJar).contains("delegate the package dev.effectful to its parent");
        }
        assertThat(r.get("look")).as("a READ still runs").isEqualTo("looked:stock");
        assertThat(ledger.effects("send", "bob")).isZero();
        assertThat(app.stderr().lines().filter(l -> l.startsWith("effectful ERROR: effectful cannot guard ")))
                .as("one loud line").singleElement().asString().contains(annotationsJar);
    }
}
