package dev.effectful.junit;

/**
 * The kit's answer for one check of one tool: what was injected, what happened (effects counted at
 * the receiver, outcomes seen) and, when it failed, what to change.
 *
 * @param tool     {@code Class.method} of the tool
 * @param happened what the kit saw, in plain words
 * @param change   what to change in the tool; empty when it passed
 */
public record Verdict(Check check, String tool, Result result, String happened, String change) {

    /** PASS, FAIL, or SKIPPED when the check does not apply to this tool or fake. */
    public enum Result { PASS, FAIL, SKIPPED }

    static Verdict pass(Check check, String tool, String happened) {
        return new Verdict(check, tool, Result.PASS, happened, "");
    }

    static Verdict fail(Check check, String tool, String happened, String change) {
        return new Verdict(check, tool, Result.FAIL, happened, change);
    }

    static Verdict skipped(Check check, String tool, String why) {
        return new Verdict(check, tool, Result.SKIPPED, why, "");
    }

    public boolean failed() {
        return result == Result.FAIL;
    }

    @Override
    public String toString() {
        return result + " [" + check.title() + "] " + tool + ": " + happened
                + (change.isEmpty() ? "" : "\n    -> " + change);
    }
}
