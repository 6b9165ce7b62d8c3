package dev.effectful.runtime.store;

import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;

/** Finds the {@link IntentStoreProvider} of a store kind among those on the runtime's class path. */
public final class IntentStoreProviders {

    private IntentStoreProviders() {
    }

    /**
     * The provider of {@code kind} (case-insensitive), if a module bundled with the runtime has one.
     * Looked up in the runtime's own class loader (in the agent: the isolated loader over the jar's
     * {@code inst/}), never the thread's context loader, which may be the application's.
     */
    public static Optional<IntentStoreProvider> find(String kind) {
        String wanted = kind.toLowerCase(Locale.ROOT);
        for (IntentStoreProvider p : ServiceLoader.load(IntentStoreProvider.class, IntentStoreProvider.class.getClassLoader())) {
            if (p.kind().equals(wanted)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
