package dev.effectful.core.keys;

/**
 * Where a fleet keeps its one fingerprint key (fleet mode: the shared store). Every host
 * fingerprints {@code @Redact @IntentKey} values with it, so such an intent has the same key on
 * every host.
 */
@FunctionalInterface
public interface FleetKeySource {

    /**
     * The fleet's key. When the fleet has none yet, {@code candidate} becomes it, atomically: of
     * hosts starting at once exactly one key wins, and every host gets that one.
     *
     * @throws Exception when the store cannot be asked (the caller refuses such keys and asks again later)
     */
    byte[] agree(byte[] candidate) throws Exception;

    /** Where the key is kept, for messages (never the key). */
    default String describe() {
        return "the shared store";
    }
}
