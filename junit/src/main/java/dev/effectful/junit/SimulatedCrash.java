package dev.effectful.junit;

/**
 * Thrown to the kit when the simulated process died during a call: the caller of a dead process
 * hears nothing, so the kit catches this and restarts. Seen outside the kit only if a tool's own
 * code swallowed it, which the verdict then says.
 */
public final class SimulatedCrash extends Error {

    SimulatedCrash(String message) {
        super(message, null, false, false);
    }
}
