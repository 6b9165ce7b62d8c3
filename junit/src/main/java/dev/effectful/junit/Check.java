package dev.effectful.junit;

/** The checks the kit runs: the static audit and the six failures worth injecting on purpose. */
public enum Check {
    AUDIT("audit"),
    KILL_MID_CALL("1 kill mid-call"),
    DUPLICATE_DELIVERY("2 duplicate delivery"),
    ERROR_IN_SUCCESS("3 200 with an error body"),
    SLOW_SUCCESS("4 slow success"),
    PARTIAL_BATCH("5 partial batch"),
    RATE_LIMIT("6 rate limit with Retry-After");

    private final String title;

    Check(String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }
}
