package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.KeyHeaderApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @EffectfulTool(keyHeader = "Idempotency-Key")} puts the intent key on the requests a
 * tool's body sends through the JDK's HTTP clients, as seen by a real service on loopback, in a JVM
 * started with the real agent.
 */
public class KeyHeaderIT {

    private static final Pattern INTENT_KEY = Pattern.compile("\"intent_key\":\"([0-9a-f]{32})\"");

    @TempDir
    Path tmp;

    static Stream<Arguments> clients() {
        return Jdk.all().stream().flatMap(jdk -> Stream.of("jdk-send", "jdk-async", "url-connection")
                .map(client -> Arguments.of(jdk, client)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("clients")
    void theServiceSeesTheIntentKeyOnEveryAttemptOfTheSameIntentOnly(Jdk jdk, String client) throws Exception {
        try (HeaderLedger service = new HeaderLedger("Idempotency-Key")) {
            ForkedApp app = ForkedApp.jdk(jdk).main(KeyHeaderApp.class, client)
                    .sysprop("effectful.journal.dir", tmp.resolve("journal")).sysprop("ledger", service.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            assertKeysTravel(client, service, app.results());
            assertThat(app.stderr()).as("the application's own key, kept, is named once")
                    .containsOnlyOnce("set by the application or its HTTP library, kept as is");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jdk-send", "url-connection"})
    void theClientsAreWovenWithoutByteBuddysPipeline(String client) throws Exception {
        Path classes = tmp.resolve("classes-" + client + ".txt");
        try (HeaderLedger service = new HeaderLedger("Idempotency-Key")) {
            ForkedApp app = ForkedApp.jdk(Jdk.current()).main(KeyHeaderApp.class, client)
                    .jvmArg("-Xlog:class+load=info:file=" + classes)
                    .sysprop("effectful.journal.dir", tmp.resolve("journal-" + client)).sysprop("ledger", service.url())
                    .run(tmp.resolve("logs-" + client), Duration.ofSeconds(60));
            assertKeysTravel(client, service, app.results());
        }
        String woven = client.equals("jdk-send") ? "jdk.internal.net.http.HttpClientImpl " : "java.net.HttpURLConnection ";
        assertWovenWithoutByteBuddysPipeline(classes, woven);
    }

    /**
     * The key header is an inserted call (EntryCall), not advice: loading the client ({@code wovenClass}, with the
     * bridge's {@code EntryHooks}) loads nothing of Byte Buddy beyond its ASM core. Shared with the OkHttp tests.
     */
    public static void assertWovenWithoutByteBuddysPipeline(Path classLoadLog, String wovenClass) throws java.io.IOException {
        String loaded = java.nio.file.Files.readString(classLoadLog);
        assertThat(loaded).contains(wovenClass, "dev.effectful.agent.bridge.EntryHooks ");
        assertThat(loaded.lines().filter(l -> l.contains(" net.bytebuddy.asm.Advice") || l.contains(" net.bytebuddy.description.")
                || l.contains(" net.bytebuddy.dynamic.") || l.contains(" net.bytebuddy.pool.")))
                .as("Byte Buddy classes beyond its ASM core").isEmpty();
    }

    @Test
    void clientsLoadedBeforeTheAgentWasAttachedAreRewrittenToo() throws Exception {
        Path go = tmp.resolve("go");
        try (HeaderLedger service = new HeaderLedger("Idempotency-Key")) {
            // without the agent the application brings the API itself
            Path api = Path.of(System.getProperty("effectful.it.libs", "target/it-libs"), "effectful-annotations.jar");
            ForkedApp app = ForkedApp.jdk(Jdk.current()).withoutAgent().main(KeyHeaderApp.class, "attach", go.toString())
                    .classPath(System.getProperty("effectful.test.classpath", Path.of("target/test-classes").toString())
                            + java.io.File.pathSeparator + api.toAbsolutePath())
                    .sysprop("effectful.journal.dir", tmp.resolve("journal")).sysprop("ledger", service.url());
            app.start(tmp.resolve("logs"));
            app.awaitLine("READY"::equals, Duration.ofSeconds(60));
            Process attach = new ProcessBuilder(Jdk.current().home() + "/bin/java", "-jar", ForkedApp.AGENT_JAR.toString(),
                    "attach", Long.toString(app.pid())).redirectErrorStream(true).start();
            assertThat(attach.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("attach finished").isTrue();
            assertThat(attach.exitValue()).as(new String(attach.getInputStream().readAllBytes())).isZero();
            java.nio.file.Files.createFile(go);
            assertThat(app.awaitExit(Duration.ofSeconds(90))).as(app.stderr()).isZero();

            assertThat(service.seen("before-jdk-send")).containsExactly(HeaderLedger.NONE);
            assertThat(service.seen("before-url-connection")).containsExactly(HeaderLedger.NONE);
            Map<String, String> r = app.results();
            for (String client : List.of("attached-jdk-send", "attached-url-connection")) {
                Map<String, String> own = new java.util.HashMap<>();
                r.forEach((k, v) -> {
                    if (k.startsWith(client + ".")) {
                        own.put(k.substring(client.length() + 1), v);
                    }
                });
                assertKeysTravel(client, service, own);
            }
        }
    }

    /** What every client must show; also run by the OkHttp IT. */
    public static void assertKeysTravel(String client, HeaderLedger service, Map<String, String> results) {
        String first = results.get("first");
        assertThat(first).as("the service failed the first attempt: unknown").contains("\"outcome\":\"unknown\"");
        Matcher m = INTENT_KEY.matcher(first);
        assertThat(m.find()).as(first).isTrue();
        String key = m.group(1);
        assertThat(results.get("retry")).as("the first attempt's key went out (key_sent): the retry ran with it")
                .isEqualTo("recorded:" + client + "-alice");
        assertThat(service.seen(client + "-alice")).as("first attempt and the model's rephrased retry")
                .containsExactly(key, key);
        List<String> other = service.seen(client + "-bob");
        assertThat(other).hasSize(1);
        assertThat(other.get(0)).as("another target, another key").matches("[0-9a-f]{32}").isNotEqualTo(key);
        assertThat(service.seen(client + "-carol")).as("the application's own header is never replaced")
                .containsExactly("app-key-carol");
        assertThat(service.seen(client + "-outside")).as("no header outside a tool").containsExactly(HeaderLedger.NONE);
    }

    /**
     * A client the agent does not rewrite never carries the key, so a re-run after an unknown outcome
     * would create the order twice: no key_sent is journaled for the attempt, and the retry is held
     * instead of re-run.
     */
    @Test
    void aClientTheAgentDoesNotCoverNeverLetsAnUnknownCreateRunTwice() throws Exception {
        try (HeaderLedger service = new HeaderLedger("Idempotency-Key")) {
            ForkedApp app = ForkedApp.jdk(Jdk.current()).main(KeyHeaderApp.class, "uncovered")
                    .sysprop("effectful.journal.dir", tmp.resolve("journal")).sysprop("ledger", service.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            Map<String, String> r = app.results();
            assertThat(r.get("first")).contains("\"outcome\":\"unknown\"");
            assertThat(r.get("retry")).as("held, not re-run").doesNotStartWith("recorded:")
                    .contains("\"outcome\":\"unknown\"");
            assertThat(service.seen("raw-alice")).as("the order was created once, with no key on it")
                    .containsExactly(HeaderLedger.NONE);
            assertThat(app.stderr()).containsOnlyOnce("held for a probe or a person instead of re-run");
            List<JournalRecord> intents = JournalContents.of(tmp.resolve("journal"))
                    .where(x -> x.type() == RecordType.INTENT);
            assertThat(intents).hasSize(1);
            assertThat(intents.get(0).reentry()).as("a key header alone declares nothing").isEqualTo("-");
            assertThat(JournalContents.of(tmp.resolve("journal")).where(x -> x.type() == RecordType.KEY_SENT)).isEmpty();
        }
    }

    @Test
    void batchItemsCarryTheirOwnItemKeys() throws Exception {
        Path journal = tmp.resolve("journal");
        try (HeaderLedger service = new HeaderLedger("Idempotency-Key")) {
            ForkedApp app = ForkedApp.jdk(Jdk.current()).main(KeyHeaderApp.class, "batch")
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", service.url())
                    .run(tmp.resolve("logs"), Duration.ofSeconds(60));
            Map<String, String> r = app.results();
            assertThat(r.get("batch1")).contains("status=UNKNOWN");
            assertThat(r.get("batch2")).contains("status=OK");

            JournalContents j = JournalContents.of(journal);
            String k1 = itemKey(j, "r1");
            String k2 = itemKey(j, "r2");
            String k3 = itemKey(j, "r3");
            assertThat(List.of(k1, k2, k3)).doesNotHaveDuplicates();
            assertThat(service.seen("sheet-r1")).containsExactly(k1);
            assertThat(service.seen("sheet-r2")).as("the unknown row, sent again by the retry with its own key")
                    .containsExactly(k2, k2);
            assertThat(service.seen("sheet-r3")).containsExactly(k3);
            assertThat(service.seen("sheet-summary")).as("a request naming no item carries no key (not the batch's)")
                    .containsExactly(HeaderLedger.NONE, HeaderLedger.NONE);
            assertThat(app.stderr()).contains("without naming its item");
        }
    }

    private static String itemKey(JournalContents j, String item) {
        List<String> keys = j.where(x -> x.type() == RecordType.INTENT && item.equals(x.item()))
                .stream().map(JournalRecord::intentKey).distinct().toList();
        assertThat(keys).as("intent key of " + item).hasSize(1);
        return keys.get(0);
    }
}
