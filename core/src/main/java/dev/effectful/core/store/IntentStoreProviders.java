package dev.effectful.core.store;

import java.util.ArrayList;
import java.util.List;
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
        return all().stream().filter(p -> p.kind().equals(wanted)).findFirst();
    }

    /** Every store provider bundled with the runtime, looked up once. */
    public static List<IntentStoreProvider> all() {
        return Found.ALL;
    }

    private static final class Found {
        static final List<IntentStoreProvider> ALL = load();

        private static List<IntentStoreProvider> load() {
            List<IntentStoreProvider> out = new ArrayList<>();
            ServiceLoader.load(IntentStoreProvider.class, IntentStoreProvider.class.getClassLoader()).forEach(out::add);
            return List.copyOf(out);
        }
    }
}
