package dev.effectful;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A read-only snapshot of the agent in this JVM: whether it is loaded, whether its journal takes new
 * intents, and the intents that wait for a person. For health checks and dashboards (the
 * {@code effectful-spring-boot} module reads it); it changes nothing.
 *
 * <!-- compile: statements -->
 * <pre>{@code
 * AgentStatus s = AgentStatus.read();
 * if (s.agentLoaded() && s.journalProblem().isPresent()) {
 *     System.err.println("effectful refuses effectful calls: " + s.journalProblem().get());
 * }
 * }</pre>
 *
 * <p>Without the agent (no {@code -javaagent:effectful-agent.jar}), {@link #read()} answers
 * {@link #agentLoaded()} false and empty lists: nothing fails. With the agent, before its engine has
 * started, {@link #engineRunning()} is false: the engine starts once the application has tools (a class
 * with a tool loaded, or a restart over an existing journal) and its own start has quieted, or at once
 * when a call needs it; a read of this status also starts it at once, without waiting for it.
 *
 * <p>The lists are this host's journal as the CLI's {@code journal unresolved} and {@code journal
 * approvals} read it, without the arguments (those stay in the journal and the CLI). Reading them scans
 * the journal; the agent keeps a snapshot for one second, so frequent readers share one scan.
 */
public final class AgentStatus {

    /** The agent's side, defined in the bootstrap loader by the agent; absent without it. */
    private static final String SOURCE = "dev.effectful.agent.bridge.StatusReport";
    private static final AgentStatus NOT_LOADED = new AgentStatus(false, false, null, null, -1, null, null,
            List.of(), List.of());

    private final boolean agentLoaded;
    private final boolean engineRunning;
    private final String journalDirectory;
    private final String journalProblem;
    private final long bytesBeforeRefusal;
    private final String store;
    private final String storeProblem;
    private final List<HeldIntent> unresolved;
    private final List<WaitingApproval> approvals;

    private AgentStatus(boolean agentLoaded, boolean engineRunning, String journalDirectory, String journalProblem,
                        long bytesBeforeRefusal, String store, String storeProblem, List<HeldIntent> unresolved,
                        List<WaitingApproval> approvals) {
        this.agentLoaded = agentLoaded;
        this.engineRunning = engineRunning;
        this.journalDirectory = journalDirectory;
        this.journalProblem = journalProblem;
        this.bytesBeforeRefusal = bytesBeforeRefusal;
        this.store = store;
        this.storeProblem = storeProblem;
        this.unresolved = unresolved;
        this.approvals = approvals;
    }

    /**
     * An intent whose effect nobody knows yet (outcome unknown, a probe that failed, or intended with no
     * outcome), as {@code journal unresolved} lists it.
     *
     * @param intentKey         the intent key ({@code journal resolve KEY} takes it)
     * @param task              the task id
     * @param actor             who acted; empty when nobody was named
     * @param tool              the tool's name ({@code call} in the journal)
     * @param kind              the effect kind's word ({@code send}, {@code money}...)
     * @param state             the journal's word for it ({@code unknown}, {@code intended}, {@code in-flight}...)
     * @param attempt           the latest attempt number; 0 when not known
     * @param settlesOnNextCall the next call of it settles it without a person (a probe, an idempotent or
     *                          keyable tool, a key seen going out); false means a person must check the effect
     * @param started           when its latest attempt started; null when not known
     */
    public record HeldIntent(String intentKey, String task, String actor, String tool, String kind, String state,
                             int attempt, boolean settlesOnNextCall, Instant started) {

        /** Whether a person must check this effect: not a call still running here, and not one the next call settles. */
        public boolean needsPerson() {
            return !settlesOnNextCall && !"in-flight".equals(state);
        }
    }

    /**
     * An intent that waits for a person's approval ({@code journal approvals}); nothing ran yet.
     *
     * @param intentKey the intent key ({@code journal approve KEY} takes it)
     * @param task      the task id
     * @param actor     who asked; empty when nobody was named
     * @param tool      the tool's name
     * @param kind      the effect kind's word
     * @param requested when the approval was requested; null when not known
     */
    public record WaitingApproval(String intentKey, String task, String actor, String tool, String kind,
                                  Instant requested) {
    }

    /**
     * The agent's state now. Never throws: without the agent, or if the agent cannot answer, the snapshot
     * says so ({@link #agentLoaded()} false, or {@link #journalProblem()} naming why).
     */
    public static AgentStatus read() {
        MethodHandle h = Source.snapshot();
        if (h == null) {
            return NOT_LOADED;
        }
        Map<String, Object> m;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> got = (Map<String, Object>) h.invoke();
            m = got;
        } catch (Throwable t) {
            return new AgentStatus(true, false, null, "the agent could not report its state: " + t, -1, null, null,
                    List.of(), List.of());
        }
        if (m == null) {
            // loaded, but its runtime did not install its side (an agent that predates this read)
            return new AgentStatus(true, false, null, null, -1, null, null, List.of(), List.of());
        }
        List<HeldIntent> held = new ArrayList<>();
        for (Map<String, Object> r : rows(m.get("unresolved"))) {
            held.add(new HeldIntent(str(r, "intent_key"), str(r, "task"), str(r, "actor"), str(r, "call"),
                    str(r, "kind"), str(r, "state"), (int) num(r, "attempt", 0),
                    Boolean.TRUE.equals(r.get("settles_on_next_call")), instant(r, "started")));
        }
        List<WaitingApproval> waiting = new ArrayList<>();
        for (Map<String, Object> r : rows(m.get("approvals"))) {
            waiting.add(new WaitingApproval(str(r, "intent_key"), str(r, "task"), str(r, "actor"), str(r, "call"),
                    str(r, "kind"), instant(r, "requested")));
        }
        return new AgentStatus(true, Boolean.TRUE.equals(m.get("engine_running")), (String) m.get("journal_dir"),
                (String) m.get("journal_problem"), num(m, "bytes_before_refusal", -1), (String) m.get("store"),
                (String) m.get("store_problem"), Collections.unmodifiableList(held),
                Collections.unmodifiableList(waiting));
    }

    /** Whether the Effectful agent runs in this JVM. */
    public boolean agentLoaded() {
        return agentLoaded;
    }

    /** Whether its engine has started (its journal open, its index rebuilt). */
    public boolean engineRunning() {
        return engineRunning;
    }

    /** The journal's directory; empty before the engine knows it, or without the agent. */
    public Optional<String> journalDirectory() {
        return Optional.ofNullable(journalDirectory);
    }

    /**
     * Why the agent refuses new effectful calls now (the journal's directory turned read-only, the disk
     * is down to its reserve, the journal could not be opened, the configuration is invalid, the engine
     * failed to start); empty while it takes them, and without the agent.
     */
    public Optional<String> journalProblem() {
        return Optional.ofNullable(journalProblem);
    }

    /**
     * Bytes the journal's disk can still take before its reserve ({@code effectful.journal.reserve}) is
     * reached and new intents are refused; -1 when not known.
     */
    public long bytesBeforeRefusal() {
        return bytesBeforeRefusal;
    }

    /** Where decisions are taken: {@code local journal index}, or the shared store and where it is; empty before the engine runs. */
    public Optional<String> store() {
        return Optional.ofNullable(store);
    }

    /** Why the shared store cannot be asked now; empty when it can, or when there is none. */
    public Optional<String> storeProblem() {
        return Optional.ofNullable(storeProblem);
    }

    /** The unresolved intents of this host's journal, journal order. */
    public List<HeldIntent> unresolved() {
        return unresolved;
    }

    /** The intents waiting for approval in this host's journal, oldest first. */
    public List<WaitingApproval> approvals() {
        return approvals;
    }

    @Override
    public String toString() {
        if (!agentLoaded) {
            return "AgentStatus[agent not loaded]";
        }
        return "AgentStatus[engine " + (engineRunning ? "running" : "not running") + ", journal "
                + (journalProblem == null ? "writable" : journalProblem) + ", unresolved " + unresolved.size()
                + ", approvals " + approvals.size() + "]";
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rows(Object o) {
        return o instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    private static String str(Map<String, Object> m, String k) {
        Object v = m.get(k);
        return v == null ? "" : v.toString();
    }

    private static long num(Map<String, Object> m, String k, long absent) {
        return m.get(k) instanceof Number n ? n.longValue() : absent;
    }

    private static Instant instant(Map<String, Object> m, String k) {
        long ms = num(m, k, 0);
        return ms > 0 ? Instant.ofEpochMilli(ms) : null;
    }

    /** Kept once found; looked for again while absent (an agent attached later defines it then). */
    private static final class Source {
        private static volatile MethodHandle found;

        static MethodHandle snapshot() {
            MethodHandle h = found;
            if (h == null) {
                h = find();
                found = h;
            }
            return h;
        }

        private static MethodHandle find() {
            try {
                Class<?> c = Class.forName(SOURCE, true, null);
                return MethodHandles.publicLookup().findStatic(c, "snapshot", MethodType.methodType(Map.class));
            } catch (ReflectiveOperationException | LinkageError | RuntimeException noAgent) {
                return null;
            }
        }
    }
}
