package dev.effectful.runtime.classify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One exception of a cause chain with the HTTP status it carries, read once.
 *
 * @param thrown the exception
 * @param http   its HTTP status and Retry-After, when it is a known carrier
 */
record Link(Throwable thrown, Optional<HttpStatusReader.Reading> http) {

    /** Enough for any real wrapping (ExecutionException in UncheckedIOException in ...). */
    private static final int MAX_DEPTH = 32;

    /** The chain from {@code thrown} down its causes, bounded and stopping at a cycle. */
    static List<Link> chain(Throwable thrown) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Link> links = new ArrayList<>();
        for (Throwable t = thrown; t != null && links.size() < MAX_DEPTH && seen.add(t); t = causeOf(t)) {
            links.add(new Link(t, HttpStatusReader.read(t)));
        }
        return links;
    }

    private static Throwable causeOf(Throwable t) {
        try {
            return t.getCause();
        } catch (RuntimeException overriddenBadly) {
            return null; // a broken getCause() must not break classification
        }
    }
}
