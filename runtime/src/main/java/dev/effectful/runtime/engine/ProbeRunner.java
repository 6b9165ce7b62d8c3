package dev.effectful.runtime.engine;

import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.runtime.values.ResultCodec;

import java.lang.reflect.InvocationTargetException;
import java.util.Optional;

/**
 * Runs a tool's declared probe: a measurement of whether an earlier attempt's effect landed.
 * null, an empty Optional and false mean absent; anything else is the effect, found.
 */
final class ProbeRunner {

    private final ResultCodec results;

    ProbeRunner(ResultCodec results) {
        this.results = results;
    }

    /** found / absent / failed, with the probe's value and its stored JSON when found. */
    record Result(String word, Object value, String json, String message) {
    }

    Result run(ToolMethod tool, Object self, Object[] args) {
        Object value;
        try {
            value = tool.probe().orElseThrow().invoke(self, args);
        } catch (InvocationTargetException e) {
            Throwable c = e.getCause();
            return new Result("failed", null, null, "probe threw " + c.getClass().getSimpleName()
                    + (c.getMessage() == null ? "" : ": " + c.getMessage()));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new Result("failed", null, null, "probe could not run: " + e);
        }
        if (value == null || Boolean.FALSE.equals(value) || (value instanceof Optional<?> o && o.isEmpty())) {
            return new Result("absent", null, null, null);
        }
        ResultCodec.Encoded enc = results.encode(value);
        return new Result("found", value, enc.json(), enc.problem() == null ? null : "result not stored: " + enc.problem());
    }
}
