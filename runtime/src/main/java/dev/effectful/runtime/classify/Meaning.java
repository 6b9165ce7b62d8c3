package dev.effectful.runtime.classify;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Status;
import dev.effectful.core.journal.Kind;

/**
 * Where in a call a failure happened. The place, not the exception type, decides whether the
 * effect could have landed, and a {@link EffectKind#READ} has no effect to worry about.
 */
enum Meaning {
    /** The request never left or never arrived: nothing can have happened. */
    NEVER_REACHED(Status.RETRYABLE, EffectApplied.NO, false),
    /** The request was sent and no answer came: the receiver may have acted. */
    NO_ANSWER(Status.UNKNOWN, EffectApplied.UNKNOWN, true),
    /** The service answered "not now" (429, 503, 408): it did not act and may later. */
    TRY_LATER(Status.RETRYABLE, EffectApplied.NO, false),
    /** The request itself is wrong (4xx, invalid argument): the same call fails again. */
    REJECTED(Status.PERMANENT, EffectApplied.NO, false),
    /** The service failed while handling the request (500, 502, 504): it may have acted. */
    SERVER_FAILED(Status.UNKNOWN, EffectApplied.UNKNOWN, true),
    /** Nothing known about it: assume the worst for effects. */
    UNCLASSIFIED(Status.UNKNOWN, EffectApplied.UNKNOWN, true);

    private final Status status;
    private final EffectApplied effect;
    private final boolean harmlessForRead;

    Meaning(Status status, EffectApplied effect, boolean harmlessForRead) {
        this.status = status;
        this.effect = effect;
        this.harmlessForRead = harmlessForRead;
    }

    /** The status for a tool of {@code kind}; an unknown outcome of a read is simply worth retrying. */
    Status status(EffectKind kind) {
        return harmlessForRead && Kind.alwaysRuns(kind.name()) ? Status.RETRYABLE : status;
    }

    /** The effect flag for a tool of {@code kind}; a read has no effect that could have landed. */
    EffectApplied effect(EffectKind kind) {
        return harmlessForRead && Kind.alwaysRuns(kind.name()) ? EffectApplied.NO : effect;
    }
}
