package dev.effectful.runtime.engine;

import dev.effectful.runtime.classify.Classifier;
import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.fleet.PostgresIntentStore;
import dev.effectful.runtime.journal.ChronicleJournal;
import dev.effectful.runtime.journal.JournalHealth;
import dev.effectful.runtime.keys.Fingerprinter;
import dev.effectful.runtime.log.AgentLog;
import dev.effectful.runtime.reentry.IntentStore;
import dev.effectful.runtime.reentry.IndexSnapshot;
import dev.effectful.runtime.reentry.LocalIntentIndex;
import dev.effectful.runtime.reentry.RetentionSweeper;
import dev.effectful.runtime.values.ArgsRenderer;
import dev.effectful.runtime.values.JsonMappers;
import dev.effectful.runtime.values.ResultCodec;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.rollcycles.TestRollCycles;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;

/**
 * Builds a {@link CallEngine} from the configuration: opens the journal (or records why it cannot),
 * rebuilds the intent index from it, and loads the classifier overrides.
 */
public final class EngineFactory {

    private EngineFactory() {
    }

    public static CallEngine create(EffectfulConfig config) {
        LocalIntentIndex store = new LocalIntentIndex();
        JournalAccess access;
        Fingerprinter fingerprinter;
        try {
            ChronicleJournal journal = ChronicleJournal.openWriter(config.journalDir(), config.sync() == EffectfulConfig.Sync.INTENT,
                    rollCycle(config.rollCycle()), null);
            for (String line : journal.damageFound()) {
                AgentLog.errorOnce("journal-damage:" + line, line, null);
            }
            long started = System.nanoTime();
            long replayed = rebuild(journal, store);
            // at start, then periodically: forget expired keys and delete the cycle files nothing needs
            RetentionSweeper.Result swept = new RetentionSweeper(journal, store, config.retention(),
                    System::currentTimeMillis).startPeriodic().lastResult();
            AgentLog.debug("effectful journal " + config.journalDir() + ": " + store.size() + " intents remembered ("
                    + swept.keysForgotten() + " past retention, " + swept.filesDeleted() + " cycle files deleted) in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
            access = JournalAccess.of(journal, new JournalHealth(config.journalDir(), config.journalReserveBytes(),
                    JournalAccess.HEALTH_REFRESH_MILLIS));
            // the replay above reported each damaged record (stderr, once); from now on they hold calls
            access.holdOnDamage(new DamageHold(config.journalDir(), journal::damagedRecords));
            new IndexCheckpoints(journal, access, store, replayed).start();
            fingerprinter = Fingerprinter.forJournal(config.journalDir());
        } catch (IOException | RuntimeException e) {
            String reason = "cannot open journal directory " + config.journalDir() + ": " + e.getMessage();
            AgentLog.errorOnce("journal-open", reason + "; effectful tool calls will be refused"
                    + " (retryable, effect no) and READ tools run unjournaled", null);
            access = JournalAccess.unavailable(reason);
            fingerprinter = ephemeralFingerprinter();
        }
        Classifier classifier = Classifier.defaults();
        if (config.classifierFile().isPresent()) {
            try {
                classifier = Classifier.withOverridesFrom(config.classifierFile().get());
            } catch (IOException | RuntimeException e) {
                AgentLog.errorOnce("classifier-file", "cannot read " + EffectfulConfig.CLASSIFIER_FILE + "="
                        + config.classifierFile().get() + ": " + e.getMessage() + "; using the default table", null);
            }
        }
        return new CallEngine(config, access, intentStore(config, store), new ArgsRenderer(fingerprinter, 65_536),
                new ResultCodec(JsonMappers.shared(), 1 << 20), classifier);
    }

    /**
     * Fills the index: from its snapshot plus the journal after it when the snapshot matches this
     * journal (its last record is there, with the same key), else from the whole journal. Returns
     * how many records were replayed.
     */
    static long rebuild(ChronicleJournal journal, LocalIntentIndex store) {
        Optional<IndexSnapshot.Covers> snapshot = store.loadSnapshot(journal.directory());
        if (snapshot.isPresent()) {
            IndexSnapshot.Covers c = snapshot.get();
            boolean matches = journal.read(c.lastIndex()).map(r -> c.lastKey().equals(r.intentKey())).orElse(false);
            if (matches) {
                try {
                    long tail = journal.replayForIndexAfter(c.lastIndex(), store::apply);
                    if (tail >= 0) {
                        AgentLog.debug("effectful index: " + c.entries() + " intents from the snapshot, " + tail
                                + " journal records after it");
                        return tail;
                    }
                } catch (RuntimeException e) {
                    AgentLog.warnOnce("snapshot-tail", "effectful could not replay the journal after its index"
                            + " snapshot (" + e.getMessage() + "); replaying the whole journal");
                }
            } else {
                AgentLog.info("effectful index snapshot in " + journal.directory() + " does not match the journal"
                        + " (its last record is gone or different); replaying the whole journal");
            }
            store.clear();
        }
        long[] count = {0};
        journal.replayForIndex((i, r) -> {
            count[0]++;
            store.apply(i, r);
        });
        return count[0];
    }

    /**
     * The local index decides alone, or (fleet mode) backs a shared store that decides for every
     * host. Built after the journal replay so that replaying this host's history never writes to it.
     */
    private static IntentStore intentStore(EffectfulConfig config, LocalIntentIndex local) {
        if (config.store().kind() != EffectfulConfig.StoreKind.POSTGRES) {
            return local;
        }
        PostgresIntentStore shared = PostgresIntentStore.open(config.store(), config.retention(), local);
        AgentLog.info("effectful fleet mode: intents are decided in the " + shared.describe() + " (lease "
                + config.store().lease().toMillis() + " ms)");
        return shared;
    }

    /** With no journal nothing is written, but redaction must still never fall back to plaintext. */
    private static Fingerprinter ephemeralFingerprinter() {
        try {
            java.nio.file.Path tmp = Files.createTempDirectory("effectful-secret");
            tmp.toFile().deleteOnExit();
            return Fingerprinter.forJournal(tmp);
        } catch (IOException e) {
            throw new IllegalStateException("no place for even a temporary redaction secret", e);
        }
    }

    static RollCycle rollCycle(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "five_minutely", "minutely" -> RollCycles.FIVE_MINUTELY;
            case "hourly" -> RollCycles.FAST_HOURLY;
            // one file per second: only so a test can watch retention delete files within seconds
            case "secondly" -> TestRollCycles.TEST_SECONDLY;
            default -> RollCycles.FAST_DAILY;
        };
    }
}
