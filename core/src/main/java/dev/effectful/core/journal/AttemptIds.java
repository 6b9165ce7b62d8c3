package dev.effectful.core.journal;

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

    /**
     * True when {@code attemptId} is exactly {@link #of}{@code (taskId, intentKey, attempt)}, without
     * building it: the journal then writes a one-byte mark instead of the id, and readers rebuild it.
     */
    static boolean isOf(String attemptId, String taskId, String intentKey, int attempt) {
        if (attemptId == null || taskId == null || intentKey == null || intentKey.length() < 8 || attempt < 0) {
            return false;
        }
        int t = taskId.length();
        int digits = 1;
        for (int x = attempt; x >= 10; x /= 10) {
            digits++;
        }
        if (attemptId.length() != t + 11 + digits || !attemptId.startsWith(taskId)
                || attemptId.charAt(t) != '-' || !attemptId.regionMatches(t + 1, intentKey, 0, 8)
                || attemptId.charAt(t + 9) != '-' || attemptId.charAt(t + 10) != 'a') {
            return false;
        }
        long v = 0;
        for (int i = t + 11; i < attemptId.length(); i++) {
            char c = attemptId.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
            v = v * 10 + (c - '0');
        }
        // "0" is the only representation with a leading zero that of() writes
        return v == attempt && (attemptId.charAt(t + 11) != '0' || digits == 1);
    }
}
