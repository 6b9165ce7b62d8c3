package dev.effectful.runtime.engine;

import dev.effectful.core.journal.ProbeResult;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ResultCodec;

import java.lang.reflect.InvocationTargetException;
import java.util.Optional;

/**
 * Runs a tool's declared probe: a measurement of whether an earlier attempt's effect landed.
 * null, an empty Optional and false mean absent. A present Optional is found with its content;
 * true is found without a value (unless the tool itself returns a boolean, when it is the value);
 * for a void tool anything found is found without a value; anything else is the value, found.
 */
final class ProbeRunner {

    /** Why a found effect has no value to hand back; the dedup of a result that was not stored says the same. */
    static final String NO_VALUE = "the probe reports only that the effect was applied";

    private final ResultCodec results;

    ProbeRunner(ResultCodec results) {
        this.results = results;
    }

    /**
     * found / absent / failed, with the probe's value and its stored JSON when found.
     *
     * @param hasValue false when found without a value to return (a {@code true} probe, a void tool)
     */
    record Result(ProbeResult word, Object value, String json, String message, boolean hasValue) {
        Result(ProbeResult word, Object value, String json, String message) {
            this(word, value, json, message, value != null);
        }
    }

    Result run(ToolMethod tool, Object self, Object[] args) {
        Object value;
        try {
            value = AsyncProbes.invoke(tool.probe().orElseThrow(), self, args);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            return new Result(ProbeResult.FAILED, null, null, "probe threw " + c.getClass().getSimpleName()
                    + (c.getMessage() == null ? "" : ": " + c.getMessage()));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new Result(ProbeResult.FAILED, null, null, "probe could not run: " + e);
        }
        if (value instanceof Optional<?> o) {
            if (o.isEmpty()) {
                return new Result(ProbeResult.ABSENT, null, null, null);
            }
            if (!tool.returnsOptional()) {
                value = o.get();
            }
        }
        if (value == null || Boolean.FALSE.equals(value)) {
            return new Result(ProbeResult.ABSENT, null, null, null);
        }
        Class<?> r = tool.valueClass();
        if (r == void.class || (Boolean.TRUE.equals(value) && r != boolean.class && r != Boolean.class)) {
            return new Result(ProbeResult.FOUND, null, null, null, false);
        }
        ResultCodec.Encoded enc = results.encode(value);
        return new Result(ProbeResult.FOUND, value, enc.json(), enc.problem() == null ? null : "result not stored: " + enc.problem());
    }
}
