package dev.effectful.runtime.classify;

import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The default table "exception -> meaning" of docs/OUTCOMES.md, in one place. Rows are tried in order
 * on one link of a cause chain and the first that matches wins, so a subclass row must come
 * before its superclass row.
 */
final class DefaultRules {

    /** What a row made of a link: its meaning and how to name it in a message. */
    record Match(Meaning meaning, String label) {
    }

    /** One row of the table. Sealed: a row either looks at the exception or at its HTTP status. */
    private sealed interface Row permits ByException, ByHttpStatus {
        Optional<Match> match(Link link);
    }

    private record ByException(Predicate<Throwable> test, Meaning meaning, String label) implements Row {
        @Override
        public Optional<Match> match(Link link) {
            return test.test(link.thrown()) ? Optional.of(new Match(meaning, label)) : Optional.empty();
        }
    }

    private record ByHttpStatus() implements Row {
        @Override
        public Optional<Match> match(Link link) {
            return link.http().map(h -> new Match(forStatus(h.status()), httpLabel(h.status())));
        }
    }

    private static final List<Row> ROWS = List.of(
            // never reached: nothing was sent, so nothing can have happened.
            // HttpConnectTimeoutException extends HttpTimeoutException, so it must come first.
            is(HttpConnectTimeoutException.class, Meaning.NEVER_REACHED, "connect timed out"),
            is(ConnectException.class, Meaning.NEVER_REACHED, "connection refused"),
            is(UnknownHostException.class, Meaning.NEVER_REACHED, "unknown host"),
            is(NoRouteToHostException.class, Meaning.NEVER_REACHED, "no route to host"),
            // the JDK socket uses one exception for both phases; only the message tells them apart
            new ByException(DefaultRules::isConnectTimeout, Meaning.NEVER_REACHED, "connect timed out"),

            // request sent, no answer: the receiver may have acted (a read just retries).
            // SocketTimeoutException extends InterruptedIOException, so it must come first.
            is(SocketTimeoutException.class, Meaning.NO_ANSWER, "no answer (read timed out)"),
            is(HttpTimeoutException.class, Meaning.NO_ANSWER, "no answer (request timed out)"),
            is(ClosedByInterruptException.class, Meaning.NO_ANSWER, "no answer (interrupted)"),
            is(InterruptedIOException.class, Meaning.NO_ANSWER, "no answer (interrupted)"),
            is(InterruptedException.class, Meaning.NO_ANSWER, "no answer (interrupted)"),

            // the service answered with a status: see forStatus for its rows
            new ByHttpStatus(),

            // the request itself is wrong: the same call fails the same way
            is(IllegalArgumentException.class, Meaning.REJECTED, "invalid argument"),
            // by name, so neither Jakarta nor javax validation has to be on the class path
            new ByException(DefaultRules::isValidation, Meaning.REJECTED, "validation failed"));

    private DefaultRules() {
    }

    /** The first row matching {@code link}, if any; "unclassified" is the caller's last resort. */
    static Optional<Match> match(Link link) {
        for (Row row : ROWS) {
            Optional<Match> m = row.match(link);
            if (m.isPresent()) {
                return m;
            }
        }
        return Optional.empty();
    }

    /** The HTTP status rows. */
    static Meaning forStatus(int status) {
        if (status == 429 || status == 503) {
            return Meaning.TRY_LATER; // throttled or overloaded; Retry-After says when
        }
        if (status == 408) {
            return Meaning.TRY_LATER; // the server gave up waiting for our request, so it did not act
        }
        if (status >= 400 && status < 500) {
            return Meaning.REJECTED; // the request is wrong: 400, 401, 403, 404, 409, 422 ...
        }
        if (status >= 500 && status < 600) {
            return Meaning.SERVER_FAILED; // 500, 502, 504 and the rest: it may have acted before failing
        }
        return Meaning.UNCLASSIFIED; // 1xx/3xx as a failure: nobody can say what happened
    }

    /** How a status is named in a message. */
    static String httpLabel(int status) {
        return status >= 400 && status < 600
                ? "HTTP " + status + " from the service"
                : "unexpected HTTP " + status + " from the service";
    }

    private static Row is(Class<? extends Throwable> type, Meaning meaning, String label) {
        return new ByException(type::isInstance, meaning, label);
    }

    private static boolean isConnectTimeout(Throwable t) {
        return t instanceof SocketTimeoutException
                && t.getMessage() != null
                && t.getMessage().toLowerCase(Locale.ROOT).contains("connect timed out");
    }

    private static boolean isValidation(Throwable t) {
        for (Class<?> c = t.getClass(); c != null && c != Throwable.class; c = c.getSuperclass()) {
            String name = c.getName();
            if (name.equals("jakarta.validation.ValidationException")
                    || name.equals("javax.validation.ValidationException")
                    || simpleName(name).endsWith("ValidationException")) {
                return true;
            }
        }
        return false;
    }

    /** The simple name from the binary name; Class.getSimpleName() can fail on odd bytecode. */
    static String simpleName(String binaryName) {
        int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
        return binaryName.substring(cut + 1);
    }
}
