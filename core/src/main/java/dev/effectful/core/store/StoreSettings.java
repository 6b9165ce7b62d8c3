package dev.effectful.core.store;

/**
 * A store's checked settings, made by its {@link IntentStoreProvider#configure provider} and handed
 * back to the same provider to open the store: the configuration holds them without knowing what they
 * are, so a new store adds keys without touching it.
 */
public interface StoreSettings {

    /** For logs and messages: where the store is, never a password or a URL's query string. */
    String describe();
}
