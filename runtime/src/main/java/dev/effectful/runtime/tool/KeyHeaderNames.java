package dev.effectful.runtime.tool;

import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a tool's {@code keyHeader} once, when the tool is first described. A name no client can
 * send (a space, a colon, a header the JDK client reserves for itself) would leave the tool counted
 * as keyable while no request carries its key: a re-run after an unknown outcome could then apply
 * twice. Such a tool is refused instead, naming the fix.
 */
final class KeyHeaderNames {

    /** Headers the JDK {@code HttpClient} refuses to let an application set. */
    private static final Set<String> RESERVED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private KeyHeaderNames() {
    }

    /** The header name, or null when the tool declares none; throws when it cannot be sent. */
    static String validated(Method tool, String declared) {
        if (declared == null || declared.isEmpty()) {
            return null;
        }
        String why = problem(declared);
        if (why != null) {
            throw new IllegalStateException("keyHeader = \"" + declared + "\" of " + tool + " " + why
                    + "; use the header the service deduplicates on, such as \"Idempotency-Key\"");
        }
        return declared;
    }

    /** Why {@code name} cannot be a request header, or null when it can. */
    static String problem(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (!isTokenChar(name.charAt(i))) {
                return "is not an HTTP header name (character " + (i + 1) + " is not allowed in one)";
            }
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            return "names a header the HTTP client sets itself";
        }
        return null;
    }

    /** RFC 9110 {@code tchar}. */
    private static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
