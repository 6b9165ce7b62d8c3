package dev.effectful.agent.integration;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;

/**
 * Who sent the remote request being handled: the transport announces it on the thread that reads the
 * request ({@link #enter}), the channel the library makes there for the handler (an MCP exchange) is
 * tagged with it ({@link #bind}), and the handler, often on another thread, finds it by that channel.
 * Channels are held weakly: the registry never keeps a finished request alive.
 */
final class RemoteCallers {

    /** Who calls: the transport ({@code stdio}, {@code http}), its authenticated principal (null: none), and whether it is this machine. */
    record Caller(String transport, String principal, boolean local) {
        static final Caller UNKNOWN = new Caller("unknown", null, false);
    }

    private final ThreadLocal<Caller> current = new ThreadLocal<>();
    private final Map<Object, Caller> byChannel = Collections.synchronizedMap(new WeakHashMap<>());

    /** A token restoring the caller that was current before; never null. */
    Object enter(String transport, String principal, String remoteAddress) {
        Caller before = current.get();
        boolean local = "stdio".equals(transport) || isLoopback(remoteAddress);
        current.set(new Caller(transport, principal == null || principal.isBlank() ? null : principal, local));
        return new Token(before);
    }

    void done(Object token) {
        if (token instanceof Token t) {
            if (t.before == null) {
                current.remove();
            } else {
                current.set(t.before);
            }
        }
    }

    void bind(Object channel) {
        Caller c = current.get();
        if (c != null) {
            byChannel.put(channel, c);
        }
    }

    void same(Object from, Object to) {
        Caller c = byChannel.get(from);
        if (c != null) {
            byChannel.put(to, c);
        }
    }

    Optional<Caller> of(Object channel) {
        return channel == null ? Optional.empty() : Optional.ofNullable(byChannel.get(channel));
    }

    /**
     * A loopback address written as text (the servlet's {@code getRemoteAddr()}). Read from the text
     * alone: resolving a name could reach the network.
     */
    static boolean isLoopback(String address) {
        if (address == null) {
            return false;
        }
        String a = address.trim().toLowerCase(Locale.ROOT);
        if (a.startsWith("[") && a.endsWith("]")) {
            a = a.substring(1, a.length() - 1);
        }
        int zone = a.indexOf('%');
        if (zone >= 0) {
            a = a.substring(0, zone);
        }
        if (a.startsWith("::ffff:")) {
            a = a.substring(7);
        }
        if (a.equals("::1") || a.equals("0:0:0:0:0:0:0:1")) {
            return true;
        }
        String[] parts = a.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals("127")) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit) || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    private record Token(Caller before) {
    }
}
