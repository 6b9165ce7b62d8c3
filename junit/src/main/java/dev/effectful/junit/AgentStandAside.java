package dev.effectful.junit;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * When the test JVM also runs the Effectful agent (the Install section's Surefire flag), the agent
 * would guard the kit's own calls a second time: into its journal in the project directory, under the
 * kit's throw-away task ids, leaving the simulated crashes there as unknown intents for a person. The
 * kit guards its calls itself, so it asks the agent to stand aside: for the kit's view classes, and on
 * this thread while the kit runs a tool's body. Without the agent (or with one that predates this) the
 * calls below do nothing.
 */
final class AgentStandAside {

    private static final String BRIDGE_CLASS = "dev.effectful.agent.bridge.GuardedElsewhere";
    private static final MethodHandle CLASS_GUARDED;
    private static final MethodHandle BEGIN;
    private static final MethodHandle END;

    static {
        MethodHandle classGuarded = null;
        MethodHandle begin = null;
        MethodHandle end = null;
        try {
            // the agent defines its bridge in the bootstrap loader; the kit never compiles against it
            Class<?> c = Class.forName(BRIDGE_CLASS, true, null);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            classGuarded = lookup.findStatic(c, "classGuarded", MethodType.methodType(void.class, Class.class));
            begin = lookup.findStatic(c, "begin", MethodType.methodType(void.class));
            end = lookup.findStatic(c, "end", MethodType.methodType(void.class));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException noAgent) {
            // no agent in this JVM: nothing guards the kit's calls but the kit
        }
        CLASS_GUARDED = classGuarded;
        BEGIN = begin;
        END = end;
    }

    private AgentStandAside() {
    }

    /** Whether an agent runs in this JVM that the kit asks to stand aside. */
    static boolean agentPresent() {
        return BEGIN != null;
    }

    /** Calls of tool methods of {@code viewClass} (the kit's own subclass) are the kit's: the agent lets them run. */
    static void viewClass(Class<?> viewClass) {
        if (CLASS_GUARDED != null) {
            try {
                CLASS_GUARDED.invoke(viewClass);
            } catch (Throwable t) {
                throw new IllegalStateException("effectful kit: the agent in this JVM refused to stand aside: " + t, t);
            }
        }
    }

    /** Runs {@code body} with the agent standing aside on this thread (the kit guards the call). */
    static Object run(Body body) throws Throwable {
        if (BEGIN == null) {
            return body.run();
        }
        BEGIN.invoke();
        try {
            return body.run();
        } finally {
            END.invoke();
        }
    }

    /** A tool body as the kit calls it. */
    @FunctionalInterface
    interface Body {
        Object run() throws Throwable;
    }
}
