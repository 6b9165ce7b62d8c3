package dev.effectful.it.kotlin.apps;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * What every async test tool does once its delay is over: send one SMS to the loopback ledger
 * (verb {@code sms}, keyed by the phone), in the way {@link #mode} says. The probe asks the ledger.
 * {@code HttpURLConnection} so a lost answer is the {@code SocketTimeoutException} users meet.
 */
public final class AsyncLedger {

    /** How the next send behaves. */
    public enum Mode {
        /** Applied and answered. */
        OK,
        /** Applied, never answered: {@code SocketTimeoutException} after the read timeout. */
        TIMEOUT,
        /** Nothing listens: {@code ConnectException}, nothing sent. */
        REFUSED
    }

    public static volatile Mode mode = Mode.OK;

    private AsyncLedger() {
    }

    public static long delayMs() {
        return Long.getLong("delay.ms", 150);
    }

    public static String send(String phone) throws IOException {
        return switch (mode) {
            case OK -> request("POST", ledger() + "/effect/sms", phone, 10_000);
            case TIMEOUT -> request("POST", ledger() + "/apply-then-hang/sms", phone, 700);
            // port 1 on loopback: nothing listens, the connection is refused before anything is sent
            case REFUSED -> request("POST", "http://127.0.0.1:1/effect/sms", phone, 10_000);
        };
    }

    /** The probe: the ledger's answer for an applied SMS, null when none was applied. */
    public static String find(String phone) throws IOException {
        try {
            return request("GET", ledger() + "/effect/sms", phone, 10_000);
        } catch (NotFound absent) {
            return null;
        }
    }

    private static String ledger() {
        return System.getProperty("ledger");
    }

    private static final class NotFound extends IOException {
        NotFound() {
            super("404");
        }
    }

    private static String request(String method, String base, String phone, int readTimeoutMs) throws IOException {
        URI uri = URI.create(base + "?key=" + URLEncoder.encode(phone, StandardCharsets.UTF_8));
        HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
        c.setRequestMethod(method);
        c.setConnectTimeout(2_000);
        c.setReadTimeout(readTimeoutMs);
        if (method.equals("POST")) {
            c.setDoOutput(true);
            c.getOutputStream().close();
        }
        int code = c.getResponseCode();
        if (code == 404) {
            throw new NotFound();
        }
        if (code != 200) {
            throw new IOException("HTTP " + code);
        }
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
