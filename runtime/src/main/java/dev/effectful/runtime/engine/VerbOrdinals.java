package dev.effectful.runtime.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The n-th call of a verb within a task, for tools without an {@code @IntentKey}: the weaker key
 * (a rephrased retry is a new ordinal). Bounded: the oldest tasks are forgotten first.
 */
final class VerbOrdinals {

    private static final int MAX_TASKS = 10_000;

    private final Map<String, Map<String, Integer>> byTask = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Map<String, Integer>> eldest) {
            return size() > MAX_TASKS;
        }
    };

    synchronized int next(String taskId, String verb) {
        return byTask.computeIfAbsent(taskId, t -> new LinkedHashMap<>()).merge(verb, 1, Integer::sum);
    }
}
