package dev.effectful.runtime.engine;

import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalOwners;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.journal.VerdictClaim;
import dev.effectful.core.json.JsonMappers;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ResultCodec;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The writer's side of {@code journal resolve} on a live journal: takes the requests the CLI drops
 * in {@code <journal>/resolutions/} (see {@link ResolutionRequest}), checks them against what this
 * process knows, and appends the {@code resolution} record through the normal path, so the index
 * sees it at once and the next call of that intent acts on it without a restart. The journal is
 * only ever written by this process.
 *
 * <p>Requests are looked for by a daemon thread every {@link #POLL_MILLIS}, and by the next call of
 * a held intent before it is decided, so a verdict given a moment before that call is not missed.
 */
final class ResolutionRequests implements AutoCloseable {

    static final long POLL_MILLIS = 250;
    /** The longest a call waits to take its own request while the watcher takes another (within its budget). */
    private static final long MAX_CALL_WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Tools of held intents remembered for the type check; a bound, not a cache anyone relies on. */
    private static final int MAX_KNOWN_TOOLS = 10_000;
    /** How often a verdict of this process looks again at a claim another process holds. */
    private static final long CLAIM_POLL_MILLIS = 20;

    private final Path journalDir;
    private final JournalAccess journal;
    private final IntentStore store;
    private final VerdictChecks checks;
    private final Predicate<String> runningHere;
    private final ConcurrentHashMap<String, ToolMethod> heldTools = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;
    /** One request is taken at a time; a call waits for it only as long as its budget allows. */
    private final ReentrantLock taking = new ReentrantLock();

    ResolutionRequests(Path journalDir, JournalAccess journal, IntentStore store, ResultCodec results,
                       Predicate<String> runningHere) {
        this.journalDir = journalDir;
        this.journal = journal;
        this.store = store;
        this.checks = new VerdictChecks(store, results);
        this.runningHere = runningHere;
    }

    synchronized ResolutionRequests start() {
        if (timer == null) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "effectful-resolutions");
                t.setDaemon(true);
                return t;
            });
            timer.scheduleWithFixedDelay(this::pollQuietly, 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
        return this;
    }

    /**
     * Before the call of a key this thread now holds: when the key is unresolved, remember its tool
     * (so a later request's result can be checked against its type) and act on a request waiting
     * for it. Costs a map lookup for every other key.
     */
    void beforeCall(String key, ToolMethod tool, long leftNanos) {
        IntentState s = store.get(key).orElse(null);
        if (s == null || !(s.isUnresolved() || s.awaitsApproval())) {
            return;
        }
        remember(key, tool);
        Path request = ResolutionRequest.file(journalDir, key);
        if (Files.exists(request, LinkOption.NOFOLLOW_LINKS) && ResolutionRequest.isRegular(request)) {
            // the watcher may be taking another request: wait for it within the task's budget, never longer;
            // a request not taken now is taken by the watcher, and this call is decided as the index stands
            long wait = Math.max(0, Math.min(leftNanos, MAX_CALL_WAIT_NANOS));
            boolean locked;
            try {
                locked = taking.tryLock(wait, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (locked) {
                try {
                    take(key, tool);
                } finally {
                    taking.unlock();
                }
            }
        }
    }

    /** {@code key} is unresolved and called through {@code tool}: a later --result is checked against it. */
    void remember(String key, ToolMethod tool) {
        if (heldTools.size() >= MAX_KNOWN_TOOLS) {
            heldTools.clear();
        }
        heldTools.put(key, tool);
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (Exception | LinkageError e) {
            AgentLog.warnOnce("resolutions-poll", "effectful could not read resolution requests in "
                    + ResolutionRequest.dir(journalDir) + ": " + e + "; retrying");
        }
    }

    /** One look at the request directory; package-visible for tests. */
    void poll() throws IOException {
        Path dir = ResolutionRequest.dir(journalDir);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<String> keys = new ArrayList<>();
        long now = System.currentTimeMillis();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                if (name.endsWith(".json")) {
                    String key = name.substring(0, name.length() - ".json".length());
                    if (!ResolutionRequest.isKey(key)) {
                        continue;
                    }
                    if (!ResolutionRequest.isRegular(p)) {
                        // reading a FIFO would block this watcher, and every held call behind it, for ever
                        AgentLog.warnOnce("resolutions-irregular:" + name, "effectful skips " + p + ": it is "
                                + ResolutionRequest.kindOf(p) + ", not a request file; remove it (journal resolve"
                                + " writes regular files only)");
                        continue;
                    }
                    keys.add(key);
                } else {
                    removeIfStale(p, name, now);
                }
            }
        }
        for (String key : keys) {
            // a call of it running here takes the request itself when it is decided; never beside it
            if (!runningHere.test(key)) {
                taking.lock();
                try {
                    take(key, heldTools.get(key));
                } finally {
                    taking.unlock();
                }
            }
        }
    }

    /** A leftover of an interrupted hand-over is removed, with one line saying which and why. */
    private void removeIfStale(Path p, String name, long now) {
        try {
            String why = ResolutionRequest.staleReason(name, Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)
                    .toMillis(), now);
            if (why != null && Files.deleteIfExists(p)) {
                AgentLog.warnOnce("resolutions-removed:" + name, "effectful removed the stale request file " + p
                        + " (" + why + ")");
            }
        } catch (IOException e) {
            AgentLog.warnOnce("resolutions-stale:" + name, "effectful cannot remove the stale request file " + p
                    + " (" + e.getMessage() + ")" + JournalOwners.ownedByAnother(p).map(o -> "; " + o).orElse(""));
        }
    }

    /** Claims, checks and records (or refuses) the request for {@code key}; one at a time ({@link #taking}). */
    private void take(String key, ToolMethod tool) {
        Path taken;
        try {
            taken = ResolutionRequest.claim(journalDir, key).orElse(null);
        } catch (IOException e) {
            AgentLog.warnOnce("resolutions-claim:" + key, "effectful could not take the resolution request for "
                    + key + ": " + e.getMessage());
            return;
        }
        if (taken == null) {
            return; // withdrawn by the CLI, or taken by the other path a moment ago
        }
        ResolutionRequest req;
        try {
            req = ResolutionRequest.read(taken);
        } catch (IOException | RuntimeException e) {
            req = null;
            answerRefused(key, "the request could not be read: " + e.getMessage()
                    + JournalOwners.ownedByAnother(taken).map(o -> "; " + o).orElse(""));
        } finally {
            // gone before anything is answered: whoever sees the answer finds no request left
            try {
                Files.deleteIfExists(taken);
            } catch (IOException ignored) {
                // a leftover .taken file is inert: nothing reads it again
            }
        }
        if (req == null) {
            return;
        }
        if (req.isApproval()) {
            String refusal = checks.approval(req);
            if (refusal != null) {
                answerRefused(key, refusal);
                return;
            }
            recordApproval(req);
            return;
        }
        String refusal = checks.resolution(req, tool);
        if (refusal != null) {
            answerRefused(key, refusal);
            return;
        }
        record(req);
    }

    /**
     * A verdict this process was given itself (the MCP client's user answered an elicitation), recorded by the
     * rule every verdict here follows: one per intent, the first stands. It takes the intent's {@link VerdictClaim}
     * (a {@code journal approve|deny} or console checking the intent at this moment finishes first, within
     * {@code leftNanos} and at most {@link #MAX_CALL_WAIT_NANOS}; then it finds this verdict standing and says so), takes
     * a verdict the CLI handed over for the key before this one (it was given first), and appends only while the
     * intent still waits for a verdict, under the lock every handed-over verdict is taken with.
     *
     * @return null when {@code approval} was recorded; else why not, in one line (another verdict stands, the
     *         journal refused the append)
     */
    String recordOwnVerdict(JournalRecord approval, ToolMethod tool, long leftNanos) {
        String key = approval.intentKey();
        long wait = Math.max(0, Math.min(leftNanos, MAX_CALL_WAIT_NANOS));
        long deadline = System.nanoTime() + wait;
        VerdictClaim claim = null;
        try {
            while (claim == null) {
                VerdictClaim.Attempt attempt = VerdictClaim.tryClaim(journalDir, key);
                if (attempt instanceof VerdictClaim.Claimed c) {
                    claim = c.claim();
                } else if (System.nanoTime() - deadline >= 0) {
                    break; // the lock and the check below still let exactly one verdict stand
                } else {
                    Thread.sleep(CLAIM_POLL_MILLIS); // another process holds it while it checks; bounded by the deadline
                }
            }
        } catch (IOException e) {
            AgentLog.warnOnce("own-verdict-claim:" + key, "effectful could not claim intent " + key + " for the verdict"
                    + " given through " + approval.via() + " (" + e.getMessage() + "); recorded under the writer's lock");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while another verdict on the intent was being recorded";
        }
        try {
            boolean locked;
            try {
                locked = taking.tryLock(Math.max(0, deadline - System.nanoTime()) + TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS),
                        TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted while a verdict handed over by the CLI was being taken";
            }
            if (!locked) {
                return "a verdict handed over by the CLI was being taken at the same moment";
            }
            try {
                Path handed = ResolutionRequest.file(journalDir, key);
                if (Files.exists(handed, LinkOption.NOFOLLOW_LINKS) && ResolutionRequest.isRegular(handed)) {
                    take(key, tool); // given before this answer arrived: it goes first, and this one finds it standing
                }
                IntentState s = store.get(key).orElse(null);
                if (s == null || !s.awaitsApproval()) {
                    return "intent " + key + " no longer waits for a verdict (it is "
                            + (s == null ? "unknown here" : s.phase().name().toLowerCase(java.util.Locale.ROOT)) + ")";
                }
                journal.appendAndApply(approval, store);
                journal.journal().sync(); // a person's verdict must survive a power cut too
                heldTools.remove(key);
                return null;
            } catch (JournalUnavailableException | IllegalStateException e) {
                return "the journal refused the verdict: " + e.getMessage();
            } finally {
                taking.unlock();
            }
        } finally {
            if (claim != null) {
                try {
                    claim.close();
                } catch (IOException e) {
                    // the verdict stands either way; a claim left behind is removed once this process is gone
                }
            }
        }
    }

    /** Appends the person's verdict as an {@code approval} record, through the index like every record. */
    private void recordApproval(ResolutionRequest req) {
        JournalRecord r = verdictOn(req, RecordType.APPROVAL)
                .effectApplied(Verdict.fromWord(req.verdict()).effectApplied())
                .verdict(req.verdict()).by(req.by()).note(req.note())
                .build();
        if (appendVerdict(req, r, "approval")) {
            AgentLog.info("effectful intent " + req.intentKey() + " " + req.verdict() + " by " + req.by()
                    + (req.note() == null ? "" : ": " + req.note()));
        }
    }

    private void record(ResolutionRequest req) {
        IntentState s = store.get(req.intentKey()).orElse(null);
        int attempt = Math.max(req.attempt(), s == null ? 0 : s.attempts());
        String result = null;
        if (req.resultJson() != null) {
            try {
                result = JsonMappers.shared().writeValueAsString(JsonMappers.shared().readTree(req.resultJson()));
            } catch (IOException e) {
                result = req.resultJson(); // checked above; unreachable in practice
            }
        }
        JournalRecord r = verdictOn(req, RecordType.RESOLUTION).attempt(attempt).attemptId(req.attemptId())
                .effectApplied(req.applied() ? Effect.YES : Effect.NO).message(req.note()).result(result)
                .build();
        if (appendVerdict(req, r, "resolution")) {
            AgentLog.info("effectful intent " + req.intentKey() + " resolved by a person: effect applied "
                    + (req.applied() ? "yes" : "no") + (result == null ? "" : ", with a result"));
        }
    }

    /** A record of a person's verdict on the intent {@code req} names, written for the CLI process that asked. */
    private static JournalRecord.Builder verdictOn(ResolutionRequest req, RecordType type) {
        return JournalRecord.of(type).task(req.task()).actor(req.actor()).call(req.call()).kind(req.kind())
                .intentKey(req.intentKey()).started(System.currentTimeMillis())
                .thread("journal-cli pid " + req.requestedByPid());
    }

    /** Appends and syncs a person's verdict, then frees the intent's held tools; false (refused) when it cannot. */
    private boolean appendVerdict(ResolutionRequest req, JournalRecord r, String what) {
        try {
            journal.appendAndApply(r, store);
            journal.journal().sync(); // a person's verdict must survive a power cut too
        } catch (JournalUnavailableException | IllegalStateException e) {
            answerRefused(req.intentKey(), "the writer could not append the " + what + ": " + e.getMessage());
            return false;
        }
        heldTools.remove(req.intentKey());
        return true;
    }

    private void answerRefused(String key, String reason) {
        try {
            ResolutionRequest.refuse(journalDir, key, reason);
        } catch (IOException e) {
            AgentLog.warnOnce("resolutions-refuse:" + key, "effectful refused the resolution of " + key + " ("
                    + reason + ") and could not tell the CLI: " + e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
