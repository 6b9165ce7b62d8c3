package dev.effectful.cli;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's inputs from a browser nobody controls: form bodies, form fields, paths and headers. Whatever
 * arrives, the console answers with a status below 500 and words saying what was wrong, and a form that is
 * not a whole verdict changes nothing: the journal holds the same records afterwards and no hand-over file
 * is left in {@code resolutions/}. The verdicts themselves, raced, are {@link SimultaneousVerdictsTest}'s.
 */
@AddLifecycleHook(ScaledTries.class)
class ConsoleInputProperties {

    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    private static Path dir;
    private static TestConsole console;
    private static String cookie;
    private static String csrf;
    private static long records;

    @BeforeContainer
    static void start() throws Exception {
        dir = SimultaneousVerdictsTest.journal(Files.createTempDirectory("console-input"));
        console = TestConsole.start(dir, false);
        cookie = console.signIn();
        console.desk(cookie, "refund");
        csrf = TestConsole.csrf(console.get("/intent/" + SimultaneousVerdictsTest.K_APPROVAL, cookie).body());
        records = count();
    }

    @AfterContainer
    static void stop() throws Exception {
        if (console != null) {
            console.close();
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** A POST to a verdict's address whose form lacks one thing a verdict needs, or is not a form at all. */
    @Property(tries = 100)
    void aFormThatIsNotAWholeVerdictChangesNothing(@ForAll("verdictPaths") String path, @ForAll("brokenForms") String form)
            throws Exception {
        HttpResponse<String> r = console.post(path, cookie, form);
        assertThat(r.statusCode()).as("%s %s -> %s", path, form, r.body()).isBetween(400, 499);
        assertThat(r.body()).as("the answer says what was wrong").isNotBlank();
        assertThat(count()).as("records after %s %s", path, form).isEqualTo(records);
        assertThat(SimultaneousVerdictsTest.leftIn(dir)).as("hand-over files after %s %s", path, form).isEmpty();
    }

    /** A resolution needs "applied" to be yes or no: anything else is refused before the journal is asked. */
    @Property(tries = 40)
    void aResolutionWithoutYesOrNoChangesNothing(@ForAll("notYesNo") String applied) throws Exception {
        HttpResponse<String> r = console.post("/intent/" + TestJournals.K_CRASH + "/resolve", cookie,
                "csrf=" + csrf + "&note=checked&person=Ann&applied=" + enc(applied));
        assertThat(r.statusCode()).as("applied=%s -> %s", applied, r.body()).isEqualTo(400);
        assertThat(r.body()).contains("whether it applied");
        assertThat(count()).isEqualTo(records);
        assertThat(SimultaneousVerdictsTest.leftIn(dir)).isEmpty();
    }

    @Provide
    Arbitrary<String> notYesNo() {
        return Arbitraries.strings().ofMaxLength(20).filter(s -> !s.equals("yes") && !s.equals("no"));
    }

    /** Any path, query and cookie a client may send: never a server error, never a changed journal. */
    @Property(tries = 100)
    void anyRequestIsAnsweredWithoutAServerError(@ForAll("paths") String path, @ForAll("headerValues") String cookieValue,
                                                  @ForAll boolean post) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + console.server.port() + path))
                .timeout(Duration.ofSeconds(20)).header("Cookie", cookieValue);
        b = post ? b.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(cookieValue))
                : b.GET();
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s %s cookie %s -> %s", post ? "POST" : "GET", path, cookieValue, r.body()).isBetween(200, 499);
        assertThat(count()).isEqualTo(records);
    }

    @Provide
    Arbitrary<String> verdictPaths() {
        Arbitrary<String> key = Arbitraries.oneOf(
                Arbitraries.of(SimultaneousVerdictsTest.K_APPROVAL, TestJournals.K_CRASH),
                Arbitraries.strings().withChars("0123456789abcdef").ofLength(32),
                Arbitraries.strings().ofMinLength(0).ofMaxLength(40).map(s -> URLEncoder.encode(s, StandardCharsets.UTF_8)));
        Arbitrary<String> action = Arbitraries.oneOf(Arbitraries.of("approve", "deny", "resolve"),
                Arbitraries.strings().alpha().ofMaxLength(8));
        return Combinators.combine(key, action).as((k, a) -> "/intent/" + k + "/" + a);
    }

    /** Forms each missing what a verdict needs: the CSRF token, a note, a yes/no; or bytes that are no form. */
    @Provide
    Arbitrary<String> brokenForms() {
        Arbitrary<String> text = Arbitraries.strings().ofMaxLength(60);
        Arbitrary<String> blank = Arbitraries.strings().withChars(' ', '\t', '\n').ofMaxLength(5);
        return Arbitraries.oneOf(
                // no token, or a wrong one, with an otherwise whole verdict
                text.map(note -> "note=" + enc(note) + "&person=Ann&applied=yes"),
                Combinators.combine(text, text).as((token, note) -> "csrf=" + enc(token) + "x&note=" + enc(note) + "&person=Ann&applied=yes"),
                // the right token, but a blank note
                blank.map(note -> "csrf=" + csrf + "&note=" + enc(note) + "&person=Ann&applied=yes"),
                // raw bytes
                Arbitraries.strings().ofMaxLength(200));
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> segment = Arbitraries.strings().ofMaxLength(30).map(s -> URLEncoder.encode(s, StandardCharsets.UTF_8));
        Arbitrary<String> known = Arbitraries.of("/", "/overview", "/task", "/intent/", "/login", "/static/console.css", "/nope");
        return Combinators.combine(known, segment, segment).as((k, s, q) -> k + s + "?id=" + q + "&token=" + q + "&since=" + q);
    }

    /** Header values a client may send: visible ASCII and spaces (the HTTP client refuses control characters). */
    @Provide
    Arbitrary<String> headerValues() {
        return Arbitraries.strings().withCharRange(' ', '~').ofMinLength(1).ofMaxLength(80)
                .map(String::strip).filter(s -> !s.isEmpty());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static long count() throws CliException {
        AtomicLong n = new AtomicLong();
        try (JournalReader r = JournalReader.open(dir, 2_000)) {
            r.scan((i, rec) -> n.incrementAndGet());
        }
        return n.get();
    }
}
