package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.effectful.cli.TestJournals.K_CRASH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console over real HTTP on loopback, on a real journal: who may see it, what a form needs, what
 * a page may print, and that a verdict lands in the journal through {@code resolve}'s path.
 */
class ConsoleTest {

    private static final String XSS = "<img src=x onerror=alert(1)>";
    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @TempDir
    Path tmp;

    private TestConsole console;
    private JournalConsole data;
    private ConsoleServer server;

    @AfterEach
    void stop() {
        if (console != null) {
            console.close();
        }
    }

    private Path journal() throws Exception {
        Path dir = tmp.resolve("journal");
        TestJournals.writeScenario(dir);
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(TestJournals.intent("ord-3", "wire", "money", "00000000000000000000000000000009", 1,
                    System.currentTimeMillis(), "{\"memo\":\"" + XSS.replace("\"", "\\\"") + "\"}"));
        }
        return dir;
    }

    private ConsoleServer start(Path dir, boolean readOnly) throws Exception {
        console = TestConsole.start(dir, readOnly);
        data = console.data;
        server = console.server;
        return server;
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        return console.get(path, cookie);
    }

    private HttpResponse<String> post(String path, String cookie, String form) throws Exception {
        return console.post(path, cookie, form);
    }

    private String signIn() throws Exception {
        return console.signIn();
    }

    private static String csrf(String page) {
        return TestConsole.csrf(page);
    }

    private String desk(String cookie, String mustShow) {
        return console.desk(cookie, mustShow);
    }

    /** A read-write console on {@code dir}, signed in, its desk showing {@code mustShow}: the session's cookie. */
    private String signedInAtDesk(Path dir, String mustShow) throws Exception {
        start(dir, false);
        String cookie = signIn();
        desk(cookie, mustShow);
        return cookie;
    }

    @Test
    void everyRouteNeedsTheSessionAndTheStartTokenWorksOnce() throws Exception {
        start(journal(), false);
        for (String path : List.of("/", "/overview", "/overview?q=ord", "/task?id=ord-2", "/intent/" + K_CRASH, "/events",
                "/static/console.js", "/static/console.css", "/nowhere")) {
            assertThat(get(path, null).statusCode()).as(path).isEqualTo(401);
            assertThat(get(path, "effectful_console=forged").statusCode()).as(path).isEqualTo(401);
        }
        assertThat(post("/intent/" + K_CRASH + "/resolve", null, "applied=yes&note=x").statusCode()).isEqualTo(401);
        assertThat(get("/login?token=wrong", null).statusCode()).isEqualTo(401);
        String cookie = signIn();
        URI url = URI.create(server.url());
        assertThat(get(url.getRawPath() + "?" + url.getRawQuery(), null).statusCode()).as("the token works once").isEqualTo(401);
        HttpResponse<String> page = get("/", cookie);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'").doesNotContain("unsafe");
        // a page that rebinds its own name to 127.0.0.1 does not reach the console
        try (java.net.Socket s = new java.net.Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: evil.example\r\nCookie: " + cookie
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String status = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElse("");
            assertThat(status).startsWith("HTTP/1.1 421");
        }
    }

    @Test
    void aPostWithoutTheFormsTokenIsRefusedAndChangesNothing() throws Exception {
        Path dir = journal();
        String cookie = signedInAtDesk(dir, K_CRASH.substring(0, 12));
        assertThat(post("/intent/" + K_CRASH + "/resolve", cookie, "applied=yes&note=checked&person=ann").statusCode())
                .isEqualTo(403);
        assertThat(post("/intent/" + K_CRASH + "/resolve", cookie, "csrf=nope&applied=yes&note=checked&person=ann").statusCode())
                .isEqualTo(403);
        assertThat(TestJournals.cli("--dir", dir.toString(), "show", K_CRASH).out()).doesNotContain("resolution");
    }

    @Test
    void journaledTextIsShownAsTextNeverAsMarkup() throws Exception {
        start(journal(), false);
        String cookie = signIn();
        String desk = desk(cookie, "ord-3");
        assertThat(desk).doesNotContain(XSS).contains("&lt;img src=x onerror=alert(1)&gt;");
        String intent = get("/intent/00000000000000000000000000000009", cookie).body();
        assertThat(intent).doesNotContain(XSS).contains("&lt;img");
        String search = get("/overview?q=" + java.net.URLEncoder.encode(XSS, StandardCharsets.UTF_8), cookie).body();
        assertThat(search).doesNotContain(XSS).contains("&lt;img");
    }

    @Test
    void aVerdictFromThePageIsTheCliVerdictNamingThePerson() throws Exception {
        Path dir = journal();
        String cookie = signedInAtDesk(dir, K_CRASH.substring(0, 12));
        String page = get("/intent/" + K_CRASH, cookie).body();
        assertThat(page).contains("It applied", "It did not apply", "resolve " + K_CRASH + " --applied yes");
        // a note is required
        assertThat(post("/intent/" + K_CRASH + "/resolve", cookie, "csrf=" + csrf(page) + "&applied=yes&note=&person=ann")
                .statusCode()).isEqualTo(400);
        HttpResponse<String> done = post("/intent/" + K_CRASH + "/resolve", cookie, "csrf=" + csrf(page)
                + "&applied=yes&note=order+X-1+is+in+the+shop&person=Ann+Lee&result=%22order-77%22");
        assertThat(done.statusCode()).as(done.body()).isEqualTo(200);
        assertThat(done.body()).contains("Recorded", "resolved " + K_CRASH);
        // the answer to a form never reloads itself: a browser would send the verdict again
        assertThat(done.body()).doesNotContain("data-version");
        List<JournalRecord> records = new java.util.ArrayList<>();
        try (JournalReader r = JournalReader.open(dir, 2_000)) {
            r.scan((i, rec) -> records.add(rec));
        }
        JournalRecord resolution = records.get(records.size() - 1);
        assertThat(resolution.type()).isEqualTo(RecordType.RESOLUTION);
        assertThat(resolution.intentKey()).isEqualTo(K_CRASH);
        assertThat(resolution.result()).isEqualTo("\"order-77\"");
        assertThat(resolution.message()).contains("order X-1 is in the shop", "Ann Lee", "OS user tester");
        // the desk follows the journal: the intent no longer waits
        await().atMost(Duration.ofSeconds(10)).until(() -> !get("/", cookie).body().contains(K_CRASH.substring(0, 12)));
    }

    @Test
    void aReadOnlyConsoleShowsNoFormAndRefusesEveryAction() throws Exception {
        start(journal(), true);
        String cookie = signIn();
        desk(cookie, K_CRASH.substring(0, 12));
        for (String path : List.of("/", "/intent/" + K_CRASH, "/task?id=ord-2")) {
            assertThat(get(path, cookie).body()).as(path).doesNotContain("method=\"post\"").doesNotContain("name=\"csrf\"");
        }
        assertThat(post("/intent/" + K_CRASH + "/resolve", cookie, "applied=yes&note=x&person=ann").statusCode()).isEqualTo(403);
    }

    @Test
    void theTaskPageShowsTheRepeatUnderTheIntentItRepeated() throws Exception {
        start(journal(), false);
        String cookie = signIn();
        desk(cookie, K_CRASH.substring(0, 12));
        String task = get("/task?id=ord-1", cookie).body();
        int intent = task.indexOf("<tr class=\"intent\"");
        int repeat = task.indexOf("<tr class=\"dedup repeat\"");
        int charge = task.indexOf("charge");
        assertThat(intent).isNotNegative();
        assertThat(repeat).as("the dedup sits with its intent").isGreaterThan(intent).isLessThan(charge);
        String overview = get("/overview", cookie).body();
        assertThat(overview).contains("wait for a person");
    }

    @Test
    void openLivePagesDoNotHoldUpThePages() throws Exception {
        start(journal(), false);
        String cookie = signIn();
        List<java.util.concurrent.CompletableFuture<HttpResponse<java.io.InputStream>>> streams = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            streams.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/events"))
                    .header("Cookie", cookie).build(), HttpResponse.BodyHandlers.ofInputStream()));
        }
        for (var s : streams) {
            assertThat(s.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        // eight pages are open and listening: the pages themselves still answer
        HttpResponse<String> page = get("/overview", cookie);
        assertThat(page.statusCode()).isEqualTo(200);
        for (var s : streams) {
            s.get().body().close();
        }
    }

    @Test
    void aChangeWhileThePageLoadedIsAnnouncedAsSoonAsItsStreamOpens() throws Exception {
        Path dir = journal();
        start(dir, false);
        String cookie = signIn();
        String page = desk(cookie, "ord-3");
        Matcher m = Pattern.compile("<body data-version=\"(\\d+)\">").matcher(page);
        assertThat(m.find()).as("the page says which version it shows").isTrue();
        long shown = Long.parseLong(m.group(1));
        // the journal moves after the render and before the page's script opens its stream
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(TestJournals.intent("ord-4", "wire", "money", "0000000000000000000000000000000a", 1,
                    System.currentTimeMillis(), "{}"));
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> data.version() > shown);
        HttpResponse<java.io.InputStream> stream = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/events?since=" + shown)).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(stream.body(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            // no further change comes: only the missed one can produce this event (bounded by the read below)
            java.util.concurrent.CompletableFuture<Boolean> announced = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.equals("event: changed")) {
                            return true;
                        }
                    }
                    return false;
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            assertThat(announced.get(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
    }
}
