package dev.effectful.runtime.events;

/** The steps of one guarded call that the engine reports, in the order they can happen. */
public enum Step {
    /** The intent record is written and the body is about to run (as the current attempt). */
    INTENT,
    /** The body ran and was classified: the outcome record is written. Ends the call. */
    OUTCOME,
    /** Answered from what is already known (a stored result, a person's verdict, the concurrent call). Ends the call. */
    DEDUP,
    /** The declared probe ran; ends the call when it found the effect, else an intent or a hold follows. */
    PROBE,
    /** Refused before its body: nothing was done. Ends the call. */
    REFUSED,
    /** Held for a person (its effect is unknown): not run. Ends the call. */
    HELD
}
