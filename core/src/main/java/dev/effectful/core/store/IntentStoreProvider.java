package dev.effectful.core.store;

import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;

import java.util.List;

/**
 * A shared intent store ({@code effectful.store=KIND}), found with {@link java.util.ServiceLoader}:
 * its module lists the implementation in {@code META-INF/services/dev.effectful.core.store.IntentStoreProvider}
 * and the agent jar bundles it. The engine asks it for the store every effectful call is decided in;
 * the journal CLI ({@code journal --store KIND}) for a read-and-resolve view of the same data.
 * The local store ({@code effectful.store=local}) is the runtime's own and has no provider.
 *
 * <p>A provider owns its configuration: it names its keys ({@link #keys()}), the configuration accepts
 * them wherever a key may be given, and when {@code effectful.store} names this kind it reads and checks
 * them ({@link #configure}) at start-up, so a typo fails closed before any call.
 */
public interface IntentStoreProvider {

    /** The value of {@code effectful.store} (and of the CLI's {@code --store}) this provider serves, lower case. */
    String kind();

    /** Every key this store reads, full names under {@code effectful.store.}; documented with the store. */
    List<String> keys();

    /**
     * The keys a host needs to reach this store (address, credentials): a held intent's message tells the
     * person to run the CLI with them in its environment. By default every key.
     */
    default List<String> reachKeys() {
        return keys();
    }

    /**
     * Reads and checks this store's keys, reporting each problem on {@code keys}; the result comes back
     * to this provider in {@link #open} (inside its {@link StoreContext}) and {@link #openView}.
     */
    StoreSettings configure(StoreKeys keys);

    /**
     * Opens the store over this host's local index, already rebuilt from its journal. An unreachable
     * store is not an exception here: its calls are refused until it answers (see
     * {@link dev.effectful.core.reentry.StoreUnavailableException}). Background threads the store
     * starts stop when it is closed, if it is {@link AutoCloseable}; the engine closes it.
     */
    IntentStore open(StoreContext context, LocalIntentIndex local);

    /**
     * The CLI's view of the store, configured from the same keys as the agent's.
     *
     * @param settings what this provider's {@link #configure} returned
     * @throws IllegalArgumentException when {@code settings} are not this provider's (null: no store configured)
     */
    StoreView openView(StoreSettings settings);

    /**
     * The fleet's one fingerprint key, kept in this store; empty when the store keeps none (each
     * host then fingerprints with its own journal's secret).
     */
    default java.util.Optional<dev.effectful.core.keys.FleetKeySource> fleetKey(StoreContext context) {
        return java.util.Optional.empty();
    }
}
