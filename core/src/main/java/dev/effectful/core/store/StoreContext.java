package dev.effectful.core.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * What a store provider is given to open its store: its own checked settings and the few facts of the
 * host's configuration a store needs. A provider never sees the whole configuration, so the
 * configuration can find providers (to accept their keys) without the store SPI depending on it back.
 *
 * @param settings   what this provider's {@link IntentStoreProvider#configure} returned
 * @param journalDir this host's journal directory
 * @param retention  how long a settled intent is kept ({@code effectful.retention}); a shared store
 *                   forgets its rows after the same time
 */
public record StoreContext(StoreSettings settings, Path journalDir, Duration retention) {

    /** Settings are required: a context is only made for a store the configuration names. */
    public StoreContext {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(journalDir, "journalDir");
        Objects.requireNonNull(retention, "retention");
    }
}
