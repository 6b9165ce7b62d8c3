package dev.effectful.agent.installer;

import dev.effectful.core.journal.Kind;
import dev.effectful.core.log.AgentLog;
import dev.effectful.runtime.tool.AsyncShape;

/**
 * What the weaver says about a tool's return shape as its class is woven: an effectful tool returning
 * a promise the agent cannot follow ({@link AsyncShape#refused()}) gets one loud line now, naming the
 * method, the shape and the fix, so the refusal of its every call is no surprise at run time.
 */
final class AsyncWeaving {

    private AsyncWeaving() {
    }

    /**
     * @param kind the {@code EffectKind} constant's name the annotation gives, "SEND" when it gives none,
     *             null when the annotation is inherited (not visible here)
     */
    static void woven(String ownerInternalName, String name, String descriptor, String kind) {
        AsyncShape shape = AsyncShape.ofDescriptor(descriptor);
        if (shape == null || !shape.refused() || Kind.alwaysRuns(kind)) {
            return;
        }
        String method = ownerInternalName.replace('/', '.') + "." + name;
        AgentLog.errorOnce("async-refused:" + method + descriptor, shape.refusal(method)
                + (kind == null ? " (unless its inherited @EffectfulTool says READ)" : ""), null);
    }
}
