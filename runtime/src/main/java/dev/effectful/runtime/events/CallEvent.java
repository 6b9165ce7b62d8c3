package dev.effectful.runtime.events;

/**
 * One step of a guarded call, built once by the engine and handed to every interested sink, so
 * no sink derives anything itself. It holds names, words and numbers only: no argument, no
 * result and no message, so a {@code @Redact} value can never reach a sink through it.
 *
 * @param step          what happened
 * @param trace         the call it belongs to
 * @param task          the task's id
 * @param actor         the task's actor, or empty
 * @param verb          the tool's verb ({@code gen_ai.tool.name})
 * @param kind          the effect kind's word ({@code send}, {@code read}...)
 * @param intentKey     the intent key; null when it could not be derived
 * @param attempt       the attempt number this step concerns; 0 when no attempt is involved
 * @param attemptId     the attempt id when the body ran; else null
 * @param reentry       the path the call took
 * @param outcome       ok, retryable, permanent or unknown; null for a step that settles nothing yet
 * @param effectApplied yes, no, partial or unknown; null like {@code outcome}
 * @param retryAfterS   seconds before a retry may help; null when not known
 * @param deadlineLeftS seconds left of the task's budget; null without a budget
 * @param durationNanos how long the body (or the probe) took; 0 when nothing ran
 * @param errorType     the failure's exception class name, or the outcome's word when there was none;
 *                      null on success
 * @param probe         for {@link Step#PROBE}: found, absent or failed; else null
 * @param resolvedByPerson for {@link Step#DEDUP}: the answer is a person's verdict
 * @param last          no further event follows for this call
 */
public record CallEvent(Step step, CallTrace trace, String task, String actor, String verb, String kind,
                        String intentKey, int attempt, String attemptId, Reentry reentry, String outcome,
                        String effectApplied, Long retryAfterS, Long deadlineLeftS, long durationNanos,
                        String errorType, String probe, boolean resolvedByPerson, boolean last) {

    /** True for an ended call whose outcome is not ok. */
    public boolean failed() {
        return outcome != null && !"ok".equals(outcome);
    }
}
