package dev.effectful.runtime.engine;

import dev.effectful.runtime.journal.Effect;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.JournalUnavailableException;
import dev.effectful.runtime.journal.RecordType;
import dev.effectful.runtime.journal.ResolutionRequest;
import dev.effectful.runtime.log.AgentLog;
import dev.effectful.runtime.reentry.IntentState;
import dev.effectful.runtime.reentry.IntentStore;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.runtime.json.JsonMappers;
import dev.effectful.runtime.values.ResultCodec;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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
    /** Tools of held intents remembered for the type check; a bound, not a cache anyone relies on. */
    private static final int MAX_KNOWN_TOOLS = 10_000;

    private final Path journalDir;
    private final JournalAccess journal;
    private final IntentStore store;
    private final ResultCodec results;
    private final Predicate<String> runningHere;
    private final ConcurrentHashMap<String, ToolMethod> heldTools = new ConcurrentHashMap<>();
    private ScheduledExecutorService timer;

    ResolutionRequests(Path journalDir, JournalAccess journal, IntentStore store, ResultCodec results,
                       Predicate<String> runningHere) {
        this.journalDir = journalDir;
        this.journal = journal;
        this.store = store;
        this.results = results;
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
    void beforeCall(String key, ToolMethod tool) {
        IntentState s = store.get(key).orElse(null);
        if (s == null || !s.isUnresolved()) {
            return;
        }
        remember(key, tool);
        if (Files.exists(ResolutionRequest.file(journalDir, key))) {
            take(key, tool);
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
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.json")) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                String key = name.substring(0, name.length() - ".json".length());
                if (ResolutionRequest.isKey(key)) {
                    keys.add(key);
                }
            }
        }
        for (String key : keys) {
            // a call of it running here takes the request itself when it is decided; never beside it
            if (!runningHere.test(key)) {
                take(key, heldTools.get(key));
            }
        }
    }

    /** Claims, checks and records (or refuses) the request for {@code key}; one at a time. */
    private synchronized void take(String key, ToolMethod tool) {
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
            answerRefused(key, "the request could not be read: " + e.getMessage());
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
        String refusal = check(req, tool);
        if (refusal != null) {
            answerRefused(key, refusal);
            return;
        }
        record(req);
    }

    /** Null when the verdict may be recorded, else why not (one line, for the person). */
    private String check(ResolutionRequest req, ToolMethod tool) {
        IntentState s = store.get(req.intentKey()).orElse(null);
        if (s == null) {
            return "the writer does not know intent " + req.intentKey() + " (never seen, or forgotten after its"
                    + " retention)";
        }
        if (!s.isUnresolved() && !req.force()) {
            return "intent " + req.intentKey() + " is " + s.phase().name().toLowerCase(java.util.Locale.ROOT)
                    + " by now, not unresolved; nothing to resolve (add --force to record a verdict anyway)";
        }
        if (req.resultJson() != null) {
            if (!req.applied()) {
                return "--result only goes with --applied yes";
            }
            try {
                JsonMappers.shared().readTree(req.resultJson());
            } catch (IOException e) {
                return "--result is not JSON: " + e.getMessage().lines().findFirst().orElse("");
            }
            if (tool != null) {
                String misfit = misfit(req.resultJson(), tool);
                if (misfit != null) {
                    return misfit;
                }
            }
        }
        return null;
    }

    /** Why {@code json} cannot be what {@code tool} returns, or null when it can. */
    private String misfit(String json, ToolMethod tool) {
        Type type = valueType(tool);
        if (type == void.class || type == Void.class) {
            return "--result given, but " + tool.verb() + " returns nothing (void); resolve without --result";
        }
        try {
            results.decode(json, type);
            return null;
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            return "--result " + abbreviate(json) + " does not fit " + type.getTypeName() + ", the return type of "
                    + tool.verb() + " (" + why + "); give a value of that type";
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
        JournalRecord r = JournalRecord.of(RecordType.RESOLUTION)
                .task(req.task()).actor(req.actor()).call(req.call()).kind(req.kind())
                .intentKey(req.intentKey()).attempt(attempt).attemptId(req.attemptId())
                .started(System.currentTimeMillis()).effectApplied(req.applied() ? Effect.YES : Effect.NO)
                .message(req.note()).result(result).thread("journal-cli pid " + req.requestedByPid())
                .build();
        try {
            journal.appendAndApply(r, store);
            journal.journal().sync(); // a person's verdict must survive a power cut too
        } catch (JournalUnavailableException | IllegalStateException e) {
            answerRefused(req.intentKey(), "the writer could not append the resolution: " + e.getMessage());
            return;
        }
        heldTools.remove(req.intentKey());
        AgentLog.info("effectful intent " + req.intentKey() + " resolved by a person: effect applied "
                + (req.applied() ? "yes" : "no") + (result == null ? "" : ", with a result"));
    }

    private void answerRefused(String key, String reason) {
        try {
            ResolutionRequest.refuse(journalDir, key, reason);
        } catch (IOException e) {
            AgentLog.warnOnce("resolutions-refuse:" + key, "effectful refused the resolution of " + key + " ("
                    + reason + ") and could not tell the CLI: " + e.getMessage());
        }
    }

    private static Type valueType(ToolMethod tool) {
        if (tool.returnsOutcome() && tool.returnType() instanceof ParameterizedType p) {
            return p.getActualTypeArguments()[0];
        }
        return tool.returnType();
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
