package dev.effectful.instrumentation.embabel;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into Embabel's {@code DefaultToolLoop.execute}: opens the task of the running agent process's
 * id, its actor the process's user when it has one, when no task is current, and closes it when the loop returns or throws. Embabel's classes are Java 21,
 * so the process is reached by name in the loop's own class loader ({@code AgentProcess.get()}, then
 * {@code getId()}), never as a type this Java 17 module would have to read. Every throwable is suppressed:
 * without a process (a loop run outside an action) or in an Embabel of another shape, nothing is opened.
 */
final class ToolLoopAdvice {

    /** The binary name, for describing this class from its class file. */
    static final String NAME = "dev.effectful.instrumentation.embabel.ToolLoopAdvice";

    private ToolLoopAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static Object enter(@Advice.This Object self) throws Exception {
        Class<?> process = Class.forName("com.embabel.agent.core.AgentProcess", false, self.getClass().getClassLoader());
        Object current = process.getMethod("get").invoke(null);
        if (current == null) {
            return null;
        }
        Object id = process.getMethod("getId").invoke(current);
        if (!(id instanceof String)) {
            return null;
        }
        String actor = null;
        try {
            // the process's user: ProcessOptions.identities.forUser.id
            Object options = process.getMethod("getProcessOptions").invoke(current);
            Object identities = options.getClass().getMethod("getIdentities").invoke(options);
            Object user = identities.getClass().getMethod("getForUser").invoke(identities);
            Object userId = user == null ? null : user.getClass().getMethod("getId").invoke(user);
            actor = userId instanceof String ? (String) userId : null;
        } catch (ReflectiveOperationException | RuntimeException noUser) {
            actor = null; // a process without options or a user: the task has no actor
        }
        return Frameworks.openTask("embabel", (String) id, actor);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object token) {
        Frameworks.closeTask(token);
    }
}
