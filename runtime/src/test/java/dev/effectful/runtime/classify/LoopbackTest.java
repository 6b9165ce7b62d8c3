package dev.effectful.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real failures on the loopback interface, so the table is checked against what the JDK really throws. */
@Timeout(20)
class LoopbackTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final Classifier classifier = Classifier.defaults();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(LOOPBACK, 0), 0);
        server.createContext("/ok", ex -> {
            byte[] body = "fine".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/busy", ex -> {
            byte[] body = "{\"error\":\"overloaded\"}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Retry-After", "30");
            ex.sendResponseHeaders(503, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.createContext("/hang", ex -> {
            try {
                release.await(10, TimeUnit.SECONDS); // never answers within the client's timeout
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "loopback-test-server");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
    }

    private URI uri(String path) {
        return URI.create("http://" + LOOPBACK.getHostAddress() + ":" + server.getAddress().getPort() + path);
    }

    @Test
    void aReturned200IsNotAFailure() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/ok")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(classifier.classifyReturned(response, EffectKind.SEND)).isEmpty();
    }

    @Test
    void aReturned503IsRetryableWithItsRetryAfter() throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/busy")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        Optional<Classification> c = classifier.classifyReturned(response, EffectKind.SEND);
        assertThat(c).isPresent();
        assertThat(c.get().status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.get().effect()).isEqualTo(EffectApplied.NO);
        assertThat(c.get().retryAfterS()).isEqualTo(30L);
        assertThat(c.get().message()).isEqualTo("HTTP 503 from the service: {\"error\":\"overloaded\"}");
    }

    @Test
    void anythingElseReturnedIsNotLookedAt() {
        assertThat(classifier.classifyReturned("HTTP 503", EffectKind.SEND)).isEmpty();
        assertThat(classifier.classifyReturned(null, EffectKind.SEND)).isEmpty();
    }

    @Test
    void aRealConnectionRefusedIsRetryable() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, LOOPBACK)) {
            closedPort = s.getLocalPort();
        }
        Throwable fromSocket = catchThrowable(() -> new Socket(LOOPBACK, closedPort).close());
        Classification c = classifier.classify(fromSocket, EffectKind.SEND, ToolOverrides.NONE);
        assertThat(c.status()).isEqualTo(Status.RETRYABLE);
        assertThat(c.effect()).isEqualTo(EffectApplied.NO);
        assertThat(c.message()).startsWith("connection refused");

        URI closed = URI.create("http://" + LOOPBACK.getHostAddress() + ":" + closedPort + "/charges");
        Throwable fromClient = catchThrowable(() -> client.send(HttpRequest.newBuilder(closed).build(), HttpResponse.BodyHandlers.ofString()));
        assertThat(classifier.classify(fromClient, EffectKind.MONEY, ToolOverrides.NONE).status()).isEqualTo(Status.RETRYABLE);
    }

    @Test
    void aRealSocketReadTimeoutIsUnknownForASendAndRetryableForARead() throws Exception {
        Throwable thrown;
        try (Socket socket = new Socket(LOOPBACK, server.getAddress().getPort())) {
            socket.setSoTimeout(200);
            socket.getOutputStream().write("GET /hang HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            thrown = catchThrowable(in::read);
        }
        assertThat(thrown).isInstanceOf(java.net.SocketTimeoutException.class);
        Classification send = classifier.classify(thrown, EffectKind.SEND, ToolOverrides.NONE);
        assertThat(send.status()).isEqualTo(Status.UNKNOWN);
        assertThat(send.effect()).isEqualTo(EffectApplied.UNKNOWN);
        assertThat(send.message()).startsWith("no answer (read timed out)");
        assertThat(classifier.classify(thrown, EffectKind.READ, ToolOverrides.NONE).status()).isEqualTo(Status.RETRYABLE);
    }

    @Test
    void aRealHttpClientTimeoutIsUnknown() {
        HttpRequest request = HttpRequest.newBuilder(uri("/hang")).timeout(Duration.ofMillis(200))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
        Throwable thrown = catchThrowable(() -> client.send(request, HttpResponse.BodyHandlers.ofString()));
        assertThat(thrown).isInstanceOf(java.net.http.HttpTimeoutException.class);
        Classification c = classifier.classify(thrown, EffectKind.SEND, ToolOverrides.NONE);
        assertThat(c.status()).isEqualTo(Status.UNKNOWN);
        assertThat(c.effect()).isEqualTo(EffectApplied.UNKNOWN);

        // the async client wraps it: the chain walk finds it
        Throwable async = catchThrowable(() -> client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).get());
        assertThat(classifier.classify(async, EffectKind.SEND, ToolOverrides.NONE).status()).isEqualTo(Status.UNKNOWN);
        assertThat(classifier.classify(async, EffectKind.READ, ToolOverrides.NONE).status()).isEqualTo(Status.RETRYABLE);
    }
}
