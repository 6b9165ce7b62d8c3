package dev.effectful.runtime.engine;

/** What the rewritten method hands back to its caller: a value to return, or something to throw. */
public record Completion(Object value, Throwable thrown) {
}
