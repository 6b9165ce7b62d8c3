package dev.effectful.runtime.engine;

import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.values.ResultCodec;
import dev.effectful.runtime.tool.ToolMethod;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;

/**
 * Whether a person's verdict handed over by the CLI may be recorded, against what this process knows of
 * the intent now: the intent must be known, still waiting (unresolved, or waiting for an approval), and
 * a {@code --result} must be JSON that fits what the tool returns. Each check answers null (record it) or
 * one line for the person saying why not.
 */
record VerdictChecks(IntentStore store, ResultCodec results) {

    /** Null when the approval verdict may be recorded: the intent waits for one; else why not. */
    String approval(ResolutionRequest req) {
        IntentState s = store.get(req.intentKey()).orElse(null);
        if (s == null) {
            return "the writer does not know intent " + req.intentKey() + " (never seen, or forgotten after its"
                    + " retention)";
        }
        if (!s.awaitsApproval()) {
            return "intent " + req.intentKey() + " does not wait for an approval (it is "
                    + s.phase().name().toLowerCase(java.util.Locale.ROOT) + "); nothing to approve or deny";
        }
        return null;
    }

    /** Null when the verdict may be recorded, else why not (one line, for the person). */
    String resolution(ResolutionRequest req, ToolMethod tool) {
        IntentState s = store.get(req.intentKey()).orElse(null);
        if (s == null) {
            return "the writer does not know intent " + req.intentKey() + " (never seen, or forgotten after its"
                    + " retention)";
        }
        if (!s.isUnresolved() && !req.force()) {
            return "intent " + req.intentKey() + " is " + s.phase().name().toLowerCase(java.util.Locale.ROOT)
                    + " by now, not unresolved; nothing to resolve (add --force to record a verdict anyway)";
        }
        if (req.resultJson() != null) {
            if (!req.applied()) {
                return "--result only goes with --applied yes";
            }
            try {
                JsonMappers.shared().readTree(req.resultJson());
            } catch (IOException e) {
                return "--result is not JSON: " + e.getMessage().lines().findFirst().orElse("");
            }
            if (tool != null) {
                String misfit = misfit(req.resultJson(), tool);
                if (misfit != null) {
                    return misfit;
                }
            }
        }
        return null;
    }

    /** Why {@code json} cannot be what {@code tool} returns, or null when it can. */
    private String misfit(String json, ToolMethod tool) {
        Type type = valueType(tool);
        if (type == void.class || type == Void.class) {
            return "--result given, but " + tool.verb() + " returns nothing (void); resolve without --result";
        }
        try {
            results.decode(json, type);
            return null;
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            return "--result " + abbreviate(json) + " does not fit " + type.getTypeName() + ", the return type of "
                    + tool.verb() + " (" + why + "); give a value of that type";
        }
    }

    /** The value a repeat of {@code tool} returns: an {@code Outcome}'s value, else the return type itself. */
    static Type valueType(ToolMethod tool) {
        if (tool.returnsOutcome() && tool.returnType() instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[0];
        }
        return tool.returnType();
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
