package dev.effectful.cli.console;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Reading a request and writing an answer over the JDK's {@link HttpExchange}: plain-text and typed answers
 * (no body for HEAD), a form body bounded in size, and the decoding of forms and queries.
 */
final class Exchanges {

    private static final int MAX_FORM_BYTES = 64 * 1024;

    private Exchanges() {
    }

    static void text(HttpExchange ex, int status, String body) throws IOException {
        send(ex, status, "text/plain; charset=utf-8", (body + "\n").getBytes(StandardCharsets.UTF_8));
    }

    static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length);
        if (!head) {
            ex.getResponseBody().write(body);
        }
    }

    static String readBody(HttpExchange ex) throws IOException {
        InputStream in = ex.getRequestBody();
        byte[] b = in.readNBytes(MAX_FORM_BYTES + 1);
        return b.length > MAX_FORM_BYTES ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** An {@code application/x-www-form-urlencoded} body or query (none: empty); the first of a repeated name wins. */
    static Map<String, String> form(String raw) {
        if (raw == null) {
            return new HashMap<>();
        }
        Map<String, String> out = new HashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.putIfAbsent(k, v);
        }
        return out;
    }

    static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }
}
