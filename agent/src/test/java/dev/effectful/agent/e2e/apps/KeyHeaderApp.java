package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.agent.e2e.ControlFiles;
import dev.effectful.ToolOutcomeException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;

/**
 * Sends through one HTTP client from tools with a key header, for KeyHeaderIT (and the OkHttp IT, with its
 * own client): a first attempt the service fails (500: unknown), the model's rephrased retry, another
 * target, a request whose application set the header itself, and a request made outside any tool.
 * Prints {@code RESULT name value} lines. Args: CLIENT, or {@code batch}.
 */
public final class KeyHeaderApp {

    private KeyHeaderApp() {
    }

    public static void main(String[] args) throws Exception {
        String base = System.getProperty("ledger");
        if ("attach".equals(args[0])) {
            attached(base, java.nio.file.Path.of(args[1]));
        } else if ("uncovered".equals(args[0])) {
            uncovered(new KeyHeaderTools(KeyHeaderApp::rawSocket, base));
        } else if ("batch".equals(args[0])) {
            batch(new KeyHeaderTools(jdkSend(), base));
        } else {
            run(args[0], poster(args[0]), base);
        }
        System.out.flush();
    }

    /** The scenario for one client; {@code name} prefixes every target so clients never share a key. */
    public static void run(String name, KeyHeaderTools.Poster poster, String base) throws Exception {
        KeyHeaderTools tools = new KeyHeaderTools(poster, base);
        try (Task task = Task.open("keyheader-" + name, Duration.ofMinutes(1))) {
            try {
                tools.createOrder(name + "-alice", "a blue mug for alice", true, null);
                System.out.println("RESULT " + prefix(name) + "first ok (unexpected)");
            } catch (ToolOutcomeException e) {
                System.out.println("RESULT " + prefix(name) + "first " + e.getMessage());
            }
            System.out.println("RESULT " + prefix(name) + "retry " + tools.createOrder(name + "-alice", "one mug, blue, as asked", false, null));
            System.out.println("RESULT " + prefix(name) + "other " + tools.createOrder(name + "-bob", "a plate for bob", false, null));
            System.out.println("RESULT " + prefix(name) + "own " + tools.createOrder(name + "-carol", "a bowl", false, "app-key-carol"));
        }
        System.out.println("RESULT " + prefix(name) + "outside " + poster.post(base + "/record/" + name + "-outside", null));
    }

    /** Both JDK clients loaded and used before the agent is attached; the scenario runs after. */
    static void attached(String base, java.nio.file.Path go) throws Exception {
        KeyHeaderTools.Poster send = jdkSend();
        KeyHeaderTools.Poster connection = poster("url-connection");
        send.post(base + "/record/before-jdk-send", null);
        connection.post(base + "/record/before-url-connection", null);
        System.out.println("READY");
        ControlFiles.awaitGo(go);
        run("attached-jdk-send", send, base);
        run("attached-url-connection", connection, base);
    }

    /** Results of an attached run are prefixed by client, as one JVM runs two clients. */
    private static String prefix(String name) {
        return name.startsWith("attached-") ? name + "." : "";
    }

    /**
     * A client the agent does not cover (HTTP written by hand on a socket, as an Apache or Netty client
     * would be to it): the first attempt fails at the service after the effect landed (500: unknown), then
     * the model's rephrased retry, then the same after a covered client carried the key again.
     */
    static void uncovered(KeyHeaderTools tools) throws Exception {
        try (Task task = Task.open("keyheader-uncovered", Duration.ofMinutes(1))) {
            for (String name : List.of("first", "retry")) {
                try {
                    System.out.println("RESULT " + name + " " + tools.createOrder("raw-alice", "a mug " + name, "first".equals(name), null));
                } catch (ToolOutcomeException e) {
                    System.out.println("RESULT " + name + " " + e.getMessage());
                }
            }
        }
    }

    /** One POST written by hand on a socket: no client the agent rewrites ever sees it. */
    static String rawSocket(String url, String ownKey) throws IOException {
        URI u = URI.create(url);
        try (java.net.Socket socket = new java.net.Socket(u.getHost(), u.getPort())) {
            socket.setSoTimeout(10_000);
            String path = u.getRawPath() + (u.getRawQuery() == null ? "" : "?" + u.getRawQuery());
            String req = "POST " + path + " HTTP/1.1\r\nHost: " + u.getHost() + ":" + u.getPort()
                    + "\r\nContent-Length: 2\r\nConnection: close\r\n"
                    + (ownKey == null ? "" : "Idempotency-Key: " + ownKey + "\r\n") + "\r\n{}";
            socket.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = Integer.parseInt(response.substring(9, 12));
            if (status != 200) {
                throw new IOException("HTTP " + status);
            }
            return response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    static void batch(KeyHeaderTools tools) throws InterruptedException {
        try (Task task = Task.open("keyheader-batch", Duration.ofMinutes(1))) {
            System.out.println("RESULT batch1 " + tools.writeRows("sheet", List.of(new KeyHeaderTools.Row("r1", false),
                    new KeyHeaderTools.Row("r2", true), new KeyHeaderTools.Row("r3", false))));
            System.out.println("RESULT batch2 " + tools.writeRows("sheet", List.of(new KeyHeaderTools.Row("r1", false),
                    new KeyHeaderTools.Row("r2", false), new KeyHeaderTools.Row("r3", false))));
        } catch (ToolOutcomeException e) {
            System.out.println("RESULT batch-failed " + e.getMessage());
        }
    }

    static KeyHeaderTools.Poster poster(String name) {
        return switch (name) {
            case "jdk-send" -> jdkSend();
            case "jdk-async" -> jdkAsync();
            case "url-connection" -> KeyHeaderApp::urlConnection;
            default -> throw new IllegalArgumentException(name);
        };
    }

    static KeyHeaderTools.Poster jdkSend() {
        HttpClient client = HttpClient.newHttpClient();
        return (url, ownKey) -> ok(client.send(request(url, ownKey), HttpResponse.BodyHandlers.ofString()));
    }

    static KeyHeaderTools.Poster jdkAsync() {
        HttpClient client = HttpClient.newHttpClient();
        return (url, ownKey) -> {
            try {
                return ok(client.sendAsync(request(url, ownKey), HttpResponse.BodyHandlers.ofString()).join());
            } catch (CompletionException e) {
                throw new IOException(e.getCause());
            }
        };
    }

    private static HttpRequest request(String url, String ownKey) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("{}"));
        if (ownKey != null) {
            b.header("Idempotency-Key", ownKey);
        }
        return b.build();
    }

    private static String ok(HttpResponse<String> r) throws IOException {
        if (r.statusCode() != 200) {
            throw new IOException("HTTP " + r.statusCode());
        }
        return r.body();
    }

    static String urlConnection(String url, String ownKey) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        if (ownKey != null) {
            c.setRequestProperty("Idempotency-Key", ownKey);
        }
        try (OutputStream out = c.getOutputStream()) {
            out.write("{}".getBytes(StandardCharsets.UTF_8));
        }
        int code = c.getResponseCode();
        if (code != 200) {
            c.disconnect();
            throw new IOException("HTTP " + code);
        }
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
