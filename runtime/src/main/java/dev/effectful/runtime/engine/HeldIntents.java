package dev.effectful.runtime.engine;

import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.PrintableText;
import dev.effectful.core.reentry.ResolveHint;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The WARN line of an intent held for a person: its outcome is unknown, it has no probe, and running
 * it again could repeat its effect, so every repeat is refused until someone says whether it applied.
 * Said once per intent: the model repeating the call gets the refusal each time, the log one line.
 * The line names the tool, the task, the key, and where the person decides (the command, or the console).
 */
final class HeldIntents {

    /** Beyond this many held intents in one process the oldest memory is dropped: a line may repeat, memory stays bounded. */
    private static final int REMEMBERED = 10_000;

    private final ResolveHint hint;
    private final Set<String> told = ConcurrentHashMap.newKeySet();

    HeldIntents(ResolveHint hint) {
        this.hint = hint;
    }

    /** {@code call}'s intent is held; {@code why} says what left it unknown. */
    void held(Call call, String why) {
        String key = call.intentKey();
        if (key == null || !AgentLog.isEnabled(LogSink.Level.WARN)) {
            return;
        }
        if (told.size() >= REMEMBERED) {
            told.clear();
        }
        if (!told.add(key)) {
            return;
        }
        TaskContext task = call.task();
        AgentLog.warn("effectful held call=" + PrintableText.field(call.tool.verb()) + " task="
                + PrintableText.field(task == null ? null : task.id()) + " intent_key=" + key + ": " + why
                + "; every repeat is refused until a person resolves it: " + hint.command(key)
                + " (or --applied no if it did not apply), or in the console: " + hint.consoleCommand());
    }

    /**
     * After a fresh call concluded unknown: held when nothing settles it without a person (no probe,
     * and neither a repeat-safe kind nor a key the service deduplicates on).
     */
    void afterUnknown(Call call, boolean keySent) {
        boolean settles = call.tool.isRead() || ApiWords.kind(call.tool.kind()).settlesByItself(
                call.tool.keyable() || keySent, call.tool.probe().isPresent());
        if (!settles) {
            held(call, "its outcome is unknown and it declares no probe");
        }
    }
}
