package dev.effectful.junit;

/**
 * Where the kit injects failures: the kit's loopback {@link FakeHttpService}, or {@link FakeHooks}
 * that a user's own in-process fake calls where its effect happens.
 */
public interface FaultPoint {

    /** The next effect request meets {@code fault}; later ones are answered normally. */
    void arm(Fault fault);

    /** Takes back a fault no request has met yet. */
    void disarm();

    /** How many effect requests reached this point so far, faulted or not. */
    int requests();

    /** Whether this point can answer success with an error inside (the user gave such an answer). */
    boolean answersErrorsInSuccess();
}
