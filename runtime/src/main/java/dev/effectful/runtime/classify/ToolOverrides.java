package dev.effectful.runtime.classify;

import dev.effectful.EffectfulTool;
import java.util.List;

/**
 * A tool's own word on its exceptions, from {@code @EffectfulTool(permanentOn=..., retryableOn=...)}.
 * It beats the properties file and the defaults, because whoever wrote the tool knows best what
 * its exceptions mean. Subclasses match too.
 *
 * @param permanentOn exceptions meaning "permanent, effect no" for this tool
 * @param retryableOn exceptions meaning "retryable, effect no" for this tool
 */
public record ToolOverrides(List<Class<? extends Throwable>> permanentOn,
                            List<Class<? extends Throwable>> retryableOn) {

    /** A tool that declared nothing. */
    public static final ToolOverrides NONE = new ToolOverrides(List.of(), List.of());

    /** Copies the lists so a caller cannot change them afterwards; null means empty. */
    public ToolOverrides {
        permanentOn = permanentOn == null ? List.of() : List.copyOf(permanentOn);
        retryableOn = retryableOn == null ? List.of() : List.copyOf(retryableOn);
    }

    /** The overrides declared on {@code tool}; {@link #NONE} for null. */
    public static ToolOverrides of(EffectfulTool tool) {
        if (tool == null) {
            return NONE;
        }
        ToolOverrides o = new ToolOverrides(List.of(tool.permanentOn()), List.of(tool.retryableOn()));
        return o.isEmpty() ? NONE : o;
    }

    /** True when the tool declared nothing. */
    public boolean isEmpty() {
        return permanentOn.isEmpty() && retryableOn.isEmpty();
    }
}
