package dev.effectful.cli.console;

import com.sun.net.httpserver.HttpExchange;

/**
 * What every answer of the console carries to keep a browser from being turned against it: a strict
 * Content-Security-Policy, no sniffing, no framing, no referrer, no caching; and the Host check that keeps a
 * loopback console from answering a page elsewhere whose name was rebound to 127.0.0.1.
 */
final class SecurityHeaders {

    /** Scripts and styles only from this origin, no inline code, no framing, forms post only here. */
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private SecurityHeaders() {
    }

    /** Sets the headers on {@code ex}'s answer, before anything is sent. */
    static void secureHeaders(HttpExchange ex) {
        var h = ex.getResponseHeaders();
        h.set("Content-Security-Policy", CSP);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer"); // the sign-in URL carries the token
        h.set("Cache-Control", "no-store");
    }

    /**
     * On loopback, only loopback names: a web page elsewhere that rebinds its own host name to
     * 127.0.0.1 must not reach the console through the person's browser.
     */
    static boolean hostAllowed(HttpExchange ex, boolean loopbackOnly) {
        if (!loopbackOnly) {
            return true;
        }
        String host = ex.getRequestHeaders().getFirst("Host");
        if (host == null) {
            return false;
        }
        String name = host.startsWith("[") ? host.substring(0, host.indexOf(']') + 1)
                : host.contains(":") ? host.substring(0, host.lastIndexOf(':')) : host;
        return name.equals("localhost") || name.equals("127.0.0.1") || name.equals("[::1]");
    }
}
