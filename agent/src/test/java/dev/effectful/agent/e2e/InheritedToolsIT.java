package dev.effectful.agent.e2e;

import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.agent.e2e.apps.InheritedApp;
import dev.effectful.agent.e2e.apps.InheritedTools;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @EffectfulTool} declared on an interface, an abstract method, a default method
 * or an overridden superclass method guards the implementation; proxies and generated subclasses
 * in front of a guarded method guard the call once, without waiting on themselves. One real JVM
 * with the real agent jar, a real journal, and a loopback ledger that counts every effect.
 */
class InheritedToolsIT {

    private static final Path LIBS = Path.of(System.getProperty("effectful.it.libs", "target/it-libs")).toAbsolutePath();

    @TempDir
    static Path tmp;

    private static Map<String, String> results;
    private static JournalContents journal;
    private static String rawJournal;
    private static EffectLedger ledger;
    private static ForkedApp app;

    @BeforeAll
    static void runTheApplicationOnce() throws Exception {
        Path dir = tmp.resolve("journal");
        ledger = new EffectLedger();
        String classPath = appClassPath();
        // the task budget (20 s) bounds a self-wait; the run bound is well above it
        app = ForkedApp.jdk(Jdk.current()).main(InheritedApp.class).classPath(classPath)
                .sysprop("effectful.journal.dir", dir)
                .sysprop("effectful.log.level", "debug")
                .sysprop("ledger", ledger.url())
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"))
                .run(tmp.resolve("logs"), Duration.ofSeconds(120));
        results = app.results();
        journal = JournalContents.of(dir);
        rawJournal = raw(dir);
    }

    @org.junit.jupiter.api.AfterAll
    static void stopLedger() {
        if (ledger != null) {
            ledger.close();
        }
    }

    /** The test classes and the code generators the application uses (its own Byte Buddy, Spring's CGLIB). */
    private static String appClassPath() throws Exception {
        return System.getProperty("effectful.test.classpath", Path.of("target/test-classes").toAbsolutePath().toString())
                + File.pathSeparator + byteBuddyOfTheApplication()
                + File.pathSeparator + jarOf(org.springframework.cglib.proxy.Enhancer.class)
                + File.pathSeparator + jarOf(org.apache.commons.logging.LogFactory.class);
    }

    private static String byteBuddyOfTheApplication() throws IOException {
        try (Stream<Path> jars = Files.list(LIBS)) {
            return jars.filter(p -> p.getFileName().toString().startsWith("byte-buddy")).findFirst()
                    .orElseThrow(() -> new AssertionError("no byte-buddy in " + LIBS)).toString();
        }
    }

    private static String jarOf(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /**
     * Both calls answered the same stored value; the ledger saw the effect once; the journal holds
     * one intent, its ok outcome, and the deduplication of the repeat.
     */
    private static String onceAndDeduplicated(String scenario, String verb) throws IOException {
        String first = results.get(scenario + "_1");
        String second = results.get(scenario + "_2");
        String context = scenario + "\nstdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr();
        assertThat(first).as(context).startsWith("done:" + verb + ":");
        assertThat(second).as("the repeat returns the stored value: " + context).isEqualTo(first);
        String key = first.substring(("done:" + verb + ":").length());
        assertThat(ledger.effects(verb, key)).as("effects of " + scenario).isEqualTo(1);
        List<JournalRecord> records = journal.where(r -> key.equals(r.intentKey()));
        assertThat(records).as("journal of " + scenario).filteredOn(r -> r.type() == RecordType.INTENT).hasSize(1);
        assertThat(records).filteredOn(r -> r.type() == RecordType.OUTCOME).singleElement()
                .satisfies(o -> assertThat(o.outcome()).isEqualTo(OutcomeWord.OK));
        assertThat(records).filteredOn(r -> r.type() == RecordType.DEDUP).isNotEmpty();
        return key;
    }

    @Test
    void anInterfaceDeclaredToolGuardsItsUnannotatedImplementation() throws IOException {
        String key = onceAndDeduplicated("interface", "charge");
        JournalRecord intent = journal.where(r -> key.equals(r.intentKey()) && r.type() == RecordType.INTENT).get(0);
        assertThat(intent.call()).isEqualTo("charge");
        assertThat(intent.kind()).isEqualTo(Kind.MONEY);
        // @IntentKey on the interface's parameter: the key names the order, so a rephrased amount is the same intent
        assertThat(intent.args()).contains("\"orderId\":\"ord-1\"");
    }

    @Test
    void redactOnTheInterfaceKeepsTheImplementationsArgumentOutOfTheJournal() {
        assertThat(journal.forCall("charge")).filteredOn(r -> r.type() == RecordType.INTENT).isNotEmpty()
                .allSatisfy(r -> assertThat(r.args()).contains("hmac:").doesNotContain("tok-secret"));
        assertThat(rawJournal).doesNotContain("tok-secret-4242");
    }

    @Test
    void abstractDefaultAndOverriddenDeclarationsAreGuarded() throws IOException {
        onceAndDeduplicated("abstract", "ship");
        String mail = onceAndDeduplicated("overridden", "mail");
        onceAndDeduplicated("default", "ping");
        String page = onceAndDeduplicated("default_overridden", "page");
        onceAndDeduplicated("generic", "book");
        assertThat(ledger.effects("mail_base", mail) + ledger.effects("page_default", page))
                .as("the overridden bodies never ran").isZero();
    }

    @Test
    void theImplementationsOwnAnnotationWins() throws IOException {
        String key = onceAndDeduplicated("own_wins", "label_own");
        assertThat(journal.where(r -> key.equals(r.intentKey()) && r.type() == RecordType.INTENT).get(0).kind())
                .isEqualTo(Kind.CREATE);
        assertThat(journal.forCall("label_interface")).isEmpty();
    }

    @Test
    void aProxyInFrontOfAGuardedImplementationGuardsTheCallOnce() throws IOException {
        onceAndDeduplicated("proxy_delegating", "charge");
    }

    @Test
    void aProxyThatIsTheImplementationIsGuarded() throws IOException {
        onceAndDeduplicated("proxy_handler", "remote_create");
    }

    @Test
    void aGeneratedSubclassCallingSuperGuardsTheCallOnce() throws IOException {
        onceAndDeduplicated("generated_subclass", "charge");
    }

    @Test
    void aSpringCglibSubclassGuardsTheCallOnce() throws IOException {
        onceAndDeduplicated("cglib_subclass", "charge");
    }

    @Test
    void theSupertypesOfTheApplicationsClassesWereLoadedAheadOfThemNotReadAsClassFiles() throws IOException {
        // the hook in ClassLoader.defineClass loads a class's supertypes before the class (the application's own, and
        // those of its Byte Buddy's, which make subclasses before their interfaces load): each passes the transformer
        // first, so no decision reads a class file
        assertThat(app.stderr().lines().filter(l -> l.contains("read the class file of"))).isEmpty();
        assertThat(app.stderr()).contains("effectful rewrote " + InheritedTools.CardPayments.class.getName());
    }

    @Test
    void nothingWasRefusedOrLeftWaiting() throws IOException {
        assertThat(app.stdout()).contains("DONE").doesNotContain("THROWN").doesNotContain("RAW ");
        assertThat(journal.of(RecordType.OUTCOME)).extracting(JournalRecord::outcome).containsOnly(OutcomeWord.OK);
    }

    /** Attached to a running JVM: the adapter and the proxy, loaded before, are rewritten too. */
    @Test
    void attachedLaterItRewritesImplementationsAndProxiesAlreadyLoaded(@TempDir Path dir) throws Exception {
        Path journalDir = dir.resolve("journal");
        Path go = dir.resolve("go");
        try (EffectLedger own = new EffectLedger()) {
            // without the agent the application brings the API itself
            ForkedApp attached = ForkedApp.jdk(Jdk.current()).withoutAgent().main(InheritedApp.class, "attach", go.toString())
                    .classPath(appClassPath() + File.pathSeparator + LIBS.resolve("effectful-annotations.jar"))
                    .sysprop("effectful.journal.dir", journalDir).sysprop("ledger", own.url())
                    .env("HOME", dir.resolve("home").toString()).sysprop("user.home", dir.resolve("home"));
            attached.start(dir.resolve("out"));
            attached.awaitLine("READY"::equals, Duration.ofSeconds(60));
            Process attach = new ProcessBuilder(Jdk.current().home() + "/bin/java", "-jar", ForkedApp.AGENT_JAR.toString(),
                    "attach", Long.toString(attached.pid())).redirectErrorStream(true).start();
            assertThat(attach.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("attach finished").isTrue();
            assertThat(attach.exitValue()).as(new String(attach.getInputStream().readAllBytes())).isZero();
            Files.writeString(go, "go");
            assertThat(attached.awaitExit(Duration.ofSeconds(90))).as(attached.stderr()).isZero();

            Map<String, String> r = attached.results();
            assertThat(r.get("before")).isEqualTo("done:charge:no-attempt");
            JournalContents j = JournalContents.of(journalDir);
            for (String scenario : List.of("attached", "attached_proxy")) {
                String first = r.get(scenario + "_1");
                assertThat(first).as(scenario + "\n" + attached.stdout() + attached.stderr()).startsWith("done:charge:")
                        .isNotEqualTo("done:charge:no-attempt");
                assertThat(r.get(scenario + "_2")).isEqualTo(first);
                String key = first.substring("done:charge:".length());
                assertThat(own.effects("charge", key)).as(scenario).isEqualTo(1);
                assertThat(j.where(x -> key.equals(x.intentKey()) && x.type() == RecordType.INTENT)).hasSize(1);
            }
        }
    }

    private static String raw(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                sb.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
            }
        }
        return sb.toString();
    }
}
