package dev.effectful.runtime.journal;

/**
 * The attempt id every record of one attempt carries, {@code task-keyprefix8-aN}: built here only,
 * so the engine, batch items and the CLI can never disagree on its shape.
 */
public final class AttemptIds {

    private AttemptIds() {
    }

    /** {@code taskId-<first 8 characters of the intent key>-a<attempt>}. */
    public static String of(String taskId, String intentKey, int attempt) {
        return new StringBuilder(taskId.length() + 16).append(taskId).append('-').append(intentKey, 0, 8)
                .append("-a").append(attempt).toString();
    }
}
