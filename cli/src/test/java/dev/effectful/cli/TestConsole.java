package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real console on loopback over a journal directory, and a real HTTP client to it: sign in with the printed
 * URL, read pages, post forms. Tests of the console, and of verdicts given through it, share it.
 */
final class TestConsole implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    final JournalConsole data;
    final ConsoleServer server;

    private TestConsole(JournalConsole data, ConsoleServer server) {
        this.data = data;
        this.server = server;
    }

    /** A console over {@code dir} as {@code journal --dir DIR console} starts it, its OS user "tester". */
    static TestConsole start(Path dir, boolean readOnly) throws Exception {
        JournalCli cli = new JournalCli(new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()),
                Map.of(), false, Clock.systemDefaultZone(), 2_000);
        cli.dir = dir;
        JournalConsole data = JournalConsole.open(cli);
        try {
            return new TestConsole(data, ConsoleServer.start(data, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    readOnly, "tester", Clock.systemDefaultZone()));
        } catch (Exception e) {
            data.close();
            throw e;
        }
    }

    HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(20));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String cookie, String form) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Signs in with the printed URL; returns the cookie to send back. */
    String signIn() throws Exception {
        URI url = URI.create(server.url());
        HttpResponse<String> r = get(url.getRawPath() + "?" + url.getRawQuery(), null);
        assertThat(r.statusCode()).isEqualTo(303);
        String set = r.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(set).contains("HttpOnly", "SameSite=Strict");
        return set.substring(0, set.indexOf(';'));
    }

    static String csrf(String page) {
        Matcher m = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page);
        assertThat(m.find()).as("a form with a CSRF token").isTrue();
        return m.group(1);
    }

    /** The desk once it has read the journal (the first pass runs beside the server) and shows {@code mustShow}. */
    String desk(String cookie, String mustShow) {
        String[] body = {null};
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            body[0] = get("/", cookie).body();
            return body[0].contains(mustShow);
        });
        return body[0];
    }

    @Override
    public void close() {
        server.close();
        data.close();
    }
}
