package dev.effectful.it.events.apps;

import dev.effectful.ToolOutcomeException;

/** Prints what a call returned, or the failure the caller got, as a {@code RESULT name value} line. */
public final class Calls {

    private Calls() {
    }

    /** A call that may throw. */
    public interface Call {
        Object call() throws Exception;
    }

    public static void print(String name, Call call) {
        try {
            System.out.println("RESULT " + name + " " + call.call());
        } catch (ToolOutcomeException e) {
            System.out.println("RESULT " + name + " " + e.getMessage());
        } catch (Exception e) {
            System.out.println("RESULT " + name + " threw " + e);
        }
    }
}
