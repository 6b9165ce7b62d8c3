package dev.effectful.junit;

/** How to call the tool: a lambda over the (guarded) tool object, e.g. {@code t -> t.send("o-1", "Hi")}. */
@FunctionalInterface
public interface ToolCall<T> {
    Object call(T tool) throws Exception;
}
