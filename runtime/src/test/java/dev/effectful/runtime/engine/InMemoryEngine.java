package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.values.ResultCodec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real engine over a {@link MemoryJournal} and a {@link ClockedStore}, built the way
 * {@link EngineFactory#over} builds one: every call in-process, in microseconds. Only the
 * redaction secret is on disk (in {@code secretDir}).
 */
final class InMemoryEngine {

    final MemoryJournal journal;
    final ClockedStore store = new ClockedStore();
    final EngineHarness harness;
    private final Path secretDir;

    InMemoryEngine(Path secretDir) {
        this(secretDir, new MemoryJournal());
    }

    private InMemoryEngine(Path secretDir, MemoryJournal journal) {
        this.secretDir = secretDir;
        this.journal = journal;
        journal.replayForIndex(store::apply);
        try {
            harness = new EngineHarness(new CallEngine(EffectfulConfig.load("journal=" + secretDir),
                    JournalAccess.of(journal), store, new ArgsRenderer(Fingerprinter.forJournal(secretDir), 65_536),
                    new ResultCodec(JsonMappers.shared(), 1 << 20), Classifier.defaults()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new process on what this one's journal holds once the records {@code lost} never made it to disk. */
    InMemoryEngine restartedWithout(Predicate<JournalRecord> lost) {
        return new InMemoryEngine(secretDir, journal.without(lost));
    }

    /** Calls {@code method} of {@code tools} inside task {@code task} (30 s budget). */
    Answer call(String task, Object tools, String method, Object... args) {
        try (Task t = Task.open(task, Duration.ofSeconds(30))) {
            return Answer.of(harness.call(tools, method, args));
        }
    }

    /** Appends and folds a record as another writer (a person's resolution) would. */
    void appendAsAnotherWriter(JournalRecord r) {
        store.apply(journal.append(r), r);
    }

    /** The key of the latest intent written: the one a test's earlier call made. */
    String lastIntentKey() {
        List<JournalRecord> all = journal.all();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).type() == RecordType.INTENT) {
                return all.get(i).intentKey();
            }
        }
        throw new AssertionError("no intent in the journal");
    }

    /**
     * What the caller got, read back into status and effect whatever the tool's shape: an
     * {@code Outcome}, a thrown {@link ToolOutcomeException}, the outcome JSON of a String tool,
     * or the plain value of a success.
     */
    record Answer(Status status, EffectApplied effect, Long retryAfterS, String message, Object value) {

        private static final Pattern WORD = Pattern.compile("\"(outcome|effect_applied|retry_after_s|message)\":\"?([^\",}]*)");

        static Answer of(Completion c) {
            if (c.thrown() instanceof ToolOutcomeException toe) {
                return of(toe.outcome());
            }
            if (c.thrown() != null) {
                throw new AssertionError("the caller got a raw exception", c.thrown());
            }
            if (c.value() instanceof Outcome<?> o) {
                return of(o);
            }
            if (c.value() instanceof String s && s.startsWith("{\"outcome\":")) {
                Matcher m = WORD.matcher(s);
                String status = null;
                String effect = null;
                Long retry = null;
                String message = null;
                while (m.find()) {
                    switch (m.group(1)) {
                        case "outcome" -> status = m.group(2);
                        case "effect_applied" -> effect = m.group(2);
                        case "retry_after_s" -> retry = Long.valueOf(m.group(2));
                        default -> message = m.group(2);
                    }
                }
                return new Answer(Status.ofWord(status), EffectApplied.ofWord(effect), retry, message, null);
            }
            return new Answer(Status.OK, EffectApplied.YES, null, null, c.value());
        }

        private static Answer of(Outcome<?> o) {
            return new Answer(o.status(), o.effectApplied(), o.retryAfterS(), o.message(), o.value());
        }
    }
}
