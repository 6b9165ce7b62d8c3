package dev.effectful.store.postgres;

import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.reentry.IntentStore;
import dev.effectful.runtime.reentry.LocalIntentIndex;
import dev.effectful.runtime.store.IntentStoreProvider;
import dev.effectful.runtime.store.StoreView;

/** {@code effectful.store=postgres}: fleet mode, every host deciding in one PostgreSQL table. */
public final class PostgresStoreProvider implements IntentStoreProvider {

    @Override
    public String kind() {
        return "postgres";
    }

    @Override
    public IntentStore open(EffectfulConfig config, LocalIntentIndex local) {
        return PostgresIntentStore.open(config.store(), config.retention(), local);
    }

    @Override
    public java.util.Optional<dev.effectful.runtime.keys.FleetKeySource> fleetKey(EffectfulConfig config) {
        return java.util.Optional.of(new FleetKeyStore(config.store()));
    }

    @Override
    public StoreView openView(EffectfulConfig.Store config) {
        return PostgresJournalView.open(config);
    }
}
