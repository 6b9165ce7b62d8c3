package dev.effectful.store.postgres;

import dev.effectful.core.keys.FleetKeySource;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;
import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.StoreContext;
import dev.effectful.core.store.StoreKeys;
import dev.effectful.core.store.StoreSettings;
import dev.effectful.core.store.StoreView;

import java.util.List;
import java.util.Optional;

/** {@code effectful.store=postgres}: fleet mode, every host deciding in one PostgreSQL table. */
public final class PostgresStoreProvider implements IntentStoreProvider {

    @Override
    public String kind() {
        return "postgres";
    }

    @Override
    public List<String> keys() {
        return PostgresSettings.KEYS;
    }

    @Override
    public List<String> reachKeys() {
        return PostgresSettings.REACH_KEYS;
    }

    @Override
    public StoreSettings configure(StoreKeys keys) {
        return PostgresSettings.read(keys);
    }

    @Override
    public IntentStore open(StoreContext context, LocalIntentIndex local) {
        return PostgresIntentStore.open(settings(context.settings()), context.retention(), local);
    }

    @Override
    public Optional<FleetKeySource> fleetKey(StoreContext context) {
        return Optional.of(new FleetKeyStore(settings(context.settings())));
    }

    @Override
    public StoreView openView(StoreSettings settings) {
        return PostgresJournalView.open(settings(settings));
    }

    private static PostgresSettings settings(StoreSettings settings) {
        if (settings instanceof PostgresSettings s) {
            return s;
        }
        throw new IllegalArgumentException("effectful.store=postgres needs " + PostgresSettings.URL);
    }
}
