package dev.effectful.runtime.engine;

import dev.effectful.runtime.classify.Classifier;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalFiles;
import dev.effectful.core.journal.Journal;
import dev.effectful.core.journal.JournalHealth;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.IndexSnapshot;
import dev.effectful.core.reentry.LocalIntentIndex;
import dev.effectful.core.reentry.RetentionSweeper;
import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.IntentStoreProviders;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.values.ResultCodec;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;

/**
 * Builds a {@link CallEngine} from the configuration: opens the journal (or records why it cannot),
 * rebuilds the intent index from it, loads the classifier overrides, and starts watching for a
 * person's resolutions handed over by the CLI.
 */
public final class EngineFactory {

    private EngineFactory() {
    }

    /**
     * The engine, with an unavailable journal if it cannot be opened for any reason (including
     * another process holding it): effectful calls are then refused with the typed cause.
     */
    public static CallEngine create(EffectfulConfig config) {
        try {
            return build(config, false);
        } catch (JournalLock.JournalLockedException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /**
     * As {@link #create}, except that a journal held by another live process is not an engine but
     * this exception: the caller waits for the lock and calls again to take the journal over.
     */
    public static CallEngine open(EffectfulConfig config) throws JournalLock.JournalLockedException {
        return build(config, true);
    }

    private static CallEngine build(EffectfulConfig config, boolean lockHeldThrows) throws JournalLock.JournalLockedException {
        LocalIntentIndex store = null;
        JournalAccess access;
        Fingerprinter fingerprinter;
        // the threads started here belong to the engine, which stops them when it is closed
        java.util.List<AutoCloseable> owned = new java.util.ArrayList<>();
        try {
            ChronicleJournal journal = ChronicleJournal.openWriter(config.journalDir(), config.sync() == EffectfulConfig.Sync.INTENT,
                    config.rollCycle());
            // before this process appends anything: whether the journal holds records written before the mark
            dev.effectful.core.keys.KeyFormat.markAtOpen(journal.directory(), journal.lastIndex() >= 0);
            for (String line : journal.damageFound()) {
                AgentLog.errorOnce("journal-damage:" + line, line, null);
            }
            long started = System.nanoTime();
            // its table is a file beside the journal, which the journal's writer lock keeps ours
            store = LocalIntentIndex.inDirectory(journal.directory());
            long replayed = rebuild(journal, store);
            // at start, then periodically: forget expired keys and delete the cycle files nothing needs
            RetentionSweeper sweeper = new RetentionSweeper(journal, store, config.retention(),
                    System::currentTimeMillis).startPeriodic();
            owned.add(sweeper);
            RetentionSweeper.Result swept = sweeper.lastResult();
            AgentLog.debug("effectful journal " + config.journalDir() + ": " + store.size() + " intents remembered ("
                    + swept.keysForgotten() + " past retention, " + swept.filesDeleted() + " cycle files deleted) in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
            access = JournalAccess.of(journal, new JournalHealth(config.journalDir(), config.journalReserveBytes(),
                    JournalAccess.HEALTH_REFRESH_MILLIS));
            // the replay above reported each damaged record (stderr, once); from now on they hold calls
            access.holdOnDamage(new DamageHold(config.journalDir(), journal::damagedRecords));
            owned.add(new IndexCheckpoints(journal, access, store, replayed).start());
            fingerprinter = Fingerprinter.forJournal(config.journalDir());
        } catch (JournalLock.JournalLockedException e) {
            if (lockHeldThrows) {
                throw e;
            }
            access = unavailable(config, e);
            fingerprinter = ephemeralFingerprinter();
        } catch (IOException | RuntimeException e) {
            access = unavailable(config, e);
            fingerprinter = ephemeralFingerprinter();
        }
        if (store == null) {
            store = new LocalIntentIndex(); // no journal: calls are refused, READ calls still number attempts
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
        IntentStore decider = intentStore(config, store);
        if (!config.store().isLocal() && access.available()) {
            // one fingerprint key for the fleet, so a @Redact @IntentKey intent has one key on every host
            IntentStoreProviders.find(config.store().kind()).flatMap(p -> p.fleetKey(config.storeContext()))
                    .ifPresent(fingerprinter::joinFleet);
        }
        if (decider instanceof AutoCloseable closable) {
            owned.add(closable);
        }
        CallEngine engine = new CallEngine(config, access, decider,
                new ArgsRenderer(fingerprinter, 65_536), ResultCodec.onSharedMapper(1 << 20), classifier);
        owned.forEach(engine::own);
        // journal resolve on a live journal: this process records the verdicts the CLI hands it
        engine.startResolutionWatch();
        return engine;
    }

    /**
     * Loads and initialises, in memory only, what a start needs besides the journal (the classifier
     * table): run on a second thread while {@link #open} opens Chronicle, so a cold JVM's start costs
     * the longer of the two rather than their sum. Touches no file; best effort, a failure here
     * changes nothing (the start path does the same work and reports it). Not Jackson: the start and
     * calls of strings, numbers and booleans never need its mapper (about 500 classes, which would
     * compete with the start and the application for the same cores); the first value that does
     * builds it.
     */
    public static void warmUpInMemory() {
        try {
            Classifier.defaults();
        } catch (RuntimeException | LinkageError e) {
            AgentLog.debug("effectful could not warm up alongside the start: " + e);
        }
    }

    /**
     * Loads Jackson's mappers and writes one small value with each, off the calling thread's path:
     * run in the background once the engine is open when a tool takes or returns values of other
     * types than strings, integers and booleans, so that its first call does not pay for the several
     * hundred classes on its own thread. Best effort, as {@link #warmUpInMemory}.
     */
    public static void warmUpJson() {
        try {
            java.util.Map<String, Object> sample = java.util.Map.of("n", 1.5, "xs", java.util.List.of("a", 2L));
            dev.effectful.core.json.JsonMappers.shared().writeValueAsString(sample);
            dev.effectful.core.json.CanonicalJson.of(sample);
        } catch (Exception | LinkageError e) {
            AgentLog.debug("effectful could not warm up its JSON mappers: " + e);
        }
    }

    /**
     * Readies this JVM to take over a journal another process holds, so the takeover costs the
     * index rebuild and little else: reads the held journal read-only into a scratch index, writes
     * one record to a scratch journal in a temporary directory (deleted again), and loads the
     * classifier table. All of it loads and compiles what the start path runs; best effort,
     * a failure here changes nothing.
     */
    public static void warmUpForTakeover(EffectfulConfig config) {
        long t0 = System.nanoTime();
        if (JournalFiles.looksLikeJournal(config.journalDir())) {
            try (ChronicleJournal reader = ChronicleJournal.openReader(config.journalDir())) {
                reader.replayForIndex(new LocalIntentIndex()::apply);
            } catch (IOException | RuntimeException e) {
                AgentLog.debug("effectful could not read the held journal ahead of the takeover: " + e);
            }
        }
        scratchJournal(config, (j, dir) -> {
            j.append(JournalRecord.of(RecordType.INTENT).intentKey("warm-up").build());
            rebuild(j, new LocalIntentIndex());
            Fingerprinter.forJournal(dir);
            Classifier.defaults();
        });
        AgentLog.debug("effectful warmed up for the takeover in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /**
     * Run once the engine is open, on a low-priority thread: appends a first call's records (an intent and
     * its outcome, as the engine writes them) to a scratch journal in a temporary directory, deleted again,
     * so that the application's first tool call does not load Chronicle's append path and the record codec
     * on its own thread. Not the application's sinks or log: finding those early would initialise the
     * application's OpenTelemetry or logging before the application does. Best effort.
     */
    public static void warmUpCallPath(EffectfulConfig config) {
        long t0 = System.nanoTime();
        scratchJournal(config, (j, dir) -> {
            String key = dev.effectful.core.keys.IntentKeys.derive("warm-up", "", "warm_up", "[\"a\"]", "");
            j.append(JournalRecord.of(RecordType.INTENT).task("warm-up").call("warm_up").kind(Kind.SEND).intentKey(key)
                    .attempt(1).attemptId("warm-up-a1").started(System.currentTimeMillis()).budgetLeftS(1L)
                    .args("{\"to\":\"a\"}").build());
            j.append(JournalRecord.of(RecordType.OUTCOME).task("warm-up").call("warm_up").kind(Kind.SEND).intentKey(key)
                    .attempt(1).attemptId("warm-up-a1").started(System.currentTimeMillis())
                    .outcome(dev.effectful.core.journal.OutcomeWord.OK).effectApplied(dev.effectful.core.journal.Effect.YES)
                    .result("\"ok\"").durationMs(0L).build());
            new LocalIntentIndex().apply(0, JournalRecord.of(RecordType.INTENT).intentKey(key).kind(Kind.SEND).build());
        });
        AgentLog.debug("effectful warmed up its call path in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
    }

    /** What a warm-up does with a scratch journal. */
    private interface ScratchWork {
        void run(ChronicleJournal journal, java.nio.file.Path dir) throws IOException;
    }

    /** A writer on a scratch journal in a new temporary directory (owner-only), deleted after {@code work}. */
    private static void scratchJournal(EffectfulConfig config, ScratchWork work) {
        java.nio.file.Path scratch = null;
        try {
            scratch = Files.createTempDirectory("effectful-warmup");
            java.nio.file.Path dir = scratch.resolve("journal");
            try (ChronicleJournal j = ChronicleJournal.openWriter(dir, config.sync() == EffectfulConfig.Sync.INTENT,
                    config.rollCycle())) {
                work.run(j, dir);
            }
        } catch (IOException | RuntimeException e) {
            AgentLog.debug("effectful could not warm up on a scratch journal: " + e);
        } finally {
            deleteQuietly(scratch);
        }
    }

    private static void deleteQuietly(java.nio.file.Path root) {
        if (root == null) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | RuntimeException ignored) {
            // a temporary directory left behind holds one scratch record and nothing of the application
        }
    }

    /**
     * An engine over a journal the caller opened, such as the test kit's scratch journal: its index
     * is rebuilt from that journal, with the default classifier and no retention sweeper or index
     * checkpoints. Building a second engine over the same journal is how a restart is simulated.
     */
    public static CallEngine over(EffectfulConfig config, Journal journal) throws IOException {
        LocalIntentIndex store = new LocalIntentIndex();
        journal.replayForIndex(store::apply);
        return new CallEngine(config, JournalAccess.of(journal), store,
                new ArgsRenderer(Fingerprinter.forJournal(journal.directory()), 65_536),
                ResultCodec.onSharedMapper(1 << 20), Classifier.defaults());
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
        if (config.store().isLocal()) {
            return local;
        }
        String kind = config.store().kind();
        // every store the configuration accepts is bundled in the agent jar; only a broken build lands here,
        // and then the engine does not start: effectful calls are refused rather than decided locally
        IntentStoreProvider provider = IntentStoreProviders.find(kind).orElseThrow(() -> new IllegalStateException(
                "effectful.store=" + kind + " but no store module of that kind is in this build"));
        IntentStore shared = provider.open(config.storeContext(), local);
        AgentLog.info("effectful fleet mode: intents are decided in the " + shared.describe() + " ("
                + config.store().settings().describe() + ")");
        return shared;
    }

    private static JournalAccess unavailable(EffectfulConfig config, Exception e) {
        JournalProblem problem = JournalOpenFailures.classify(config.journalDir(), e);
        AgentLog.errorOnce("journal-open", problem.message() + "; effectful tool calls will be refused ("
                + JournalRefusal.status(problem).name().toLowerCase(java.util.Locale.ROOT) + ", effect no) and READ tools run"
                + " unjournaled", null);
        return JournalAccess.unavailable(problem);
    }

    /** With no journal nothing is written, but redaction must still never fall back to plaintext. */
    private static Fingerprinter ephemeralFingerprinter() {
        return Fingerprinter.scratch();
    }
}
