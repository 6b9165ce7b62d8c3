package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console on a journal of 1,000,000 attempts (2,001,000 records): its first page is served within
 * a second of start, while the first pass still reads; the desk with the 1,000 intents cut mid-call
 * follows when the pass ends. Tagged slow (writing the journal takes a while):
 * {@code mvn -B -pl cli -am test -Deffectful.excludedGroups= -Dtest=ConsoleMillionTest -Dsurefire.failIfNoSpecifiedTests=false}
 */
@Tag("slow")
class ConsoleMillionTest {

    static final int ATTEMPTS = 1_000_000;

    @TempDir
    Path tmp;

    @Test
    void theFirstPageIsServedWithinASecondOnAMillionAttempts() throws Exception {
        Path dir = tmp.resolve("journal");
        MillionRecordsTest.write(dir, ATTEMPTS);
        JournalCli cli = new JournalCli(new PrintStream(new ByteArrayOutputStream()), new PrintStream(new ByteArrayOutputStream()),
                Map.of(), false, Clock.systemDefaultZone(), 30_000);
        cli.dir = dir;
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        long t0 = System.nanoTime();
        try (JournalConsole data = JournalConsole.open(cli);
             ConsoleServer server = ConsoleServer.start(data, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                     false, "tester", Clock.systemDefaultZone())) {
            URI login = URI.create(server.url());
            HttpResponse<String> in = http.send(HttpRequest.newBuilder(login).build(), HttpResponse.BodyHandlers.ofString());
            String cookie = in.headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
            HttpRequest desk = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                    .header("Cookie", cookie).build();
            HttpResponse<String> first = http.send(desk, HttpResponse.BodyHandlers.ofString());
            long firstMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(firstMillis).as("first page after start, ms").isLessThan(1_000);
            long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            String body;
            do {
                Thread.sleep(100);
                body = http.send(desk, HttpResponse.BodyHandlers.ofString()).body();
            } while (!body.contains("id=\"held\"") && System.nanoTime() < end);
            long fullMillis = (System.nanoTime() - t0) / 1_000_000;
            assertThat(body).contains("id=\"held\"");
            assertThat(body.split("<tr class=\"intent\"", -1).length - 1).isEqualTo(ATTEMPTS / 1000);
            System.out.printf("console on 1,000,000 attempts: first page %d ms after start, the full desk %d ms%n",
                    firstMillis, fullMillis);
        }
    }
}
