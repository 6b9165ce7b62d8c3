package dev.effectful.core.values;

/**
 * How one parameter of a tool method is treated in the journal and the intent key.
 *
 * @param name the parameter's name as journaled (the compiled name, or argN without -parameters)
 * @param intentKey annotated {@code @IntentKey}: part of the intent's target
 * @param slot annotated {@code @Slot}: numbers a genuinely repeated act
 * @param redact annotated {@code @Redact}: only ever journaled as a keyed fingerprint
 */
public record ParamSpec(String name, boolean intentKey, boolean slot, boolean redact) {
}
