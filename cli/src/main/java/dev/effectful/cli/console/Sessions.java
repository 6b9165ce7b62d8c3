package dev.effectful.cli.console;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Who may use the console. A random token is printed once at start; opening the URL that carries it
 * trades it, once, for a session cookie ({@code HttpOnly}, {@code SameSite=Strict}). Each session has
 * its own CSRF token, which every form carries back. Comparisons are constant-time.
 */
final class Sessions {

    /** A signed-in browser: its CSRF token and the name its person typed (null until then). */
    static final class Session {
        final String csrf;
        private volatile String person;

        private Session(String csrf) {
            this.csrf = csrf;
        }

        String person() {
            return person;
        }

        void named(String name) {
            person = name;
        }
    }

    static final String COOKIE = "effectful_console";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String token = random();
    private final AtomicBoolean tokenUsed = new AtomicBoolean();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    static String random() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** The one-time token for the start URL. */
    String token() {
        return token;
    }

    /** A new session id for a browser that brings the start token, the first time only. */
    Optional<String> signIn(String given) {
        if (given == null || !same(given, token) || !tokenUsed.compareAndSet(false, true)) {
            return Optional.empty();
        }
        String id = random();
        sessions.put(id, new Session(random()));
        return Optional.of(id);
    }

    /** The session a request's cookie header names, if any. */
    Optional<Session> of(String cookieHeader) {
        if (cookieHeader == null) {
            return Optional.empty();
        }
        for (String part : cookieHeader.split(";")) {
            String p = part.strip();
            if (p.startsWith(COOKIE + "=")) {
                String id = p.substring(COOKIE.length() + 1);
                for (Map.Entry<String, Session> e : sessions.entrySet()) {
                    if (same(id, e.getKey())) {
                        return Optional.of(e.getValue());
                    }
                }
            }
        }
        return Optional.empty();
    }

    static boolean same(String a, String b) {
        return a != null && b != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8),
                b.getBytes(StandardCharsets.UTF_8));
    }
}
