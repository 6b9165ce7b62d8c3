package dev.effectful.springboot;

import dev.effectful.AgentStatus;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The health of the Effectful agent as one status word and its details, for either generation of
 * Spring Boot's health API ({@link Boot3HealthIndicator}, {@link Boot4HealthIndicator}).
 *
 * <ul>
 *   <li>{@code UNKNOWN} with {@code agent: not loaded}: the JVM runs without {@code -javaagent:effectful-agent.jar};
 *       with {@code agent: engine not started}: the agent waits for the first class with a tool;</li>
 *   <li>{@code DOWN}: the agent refuses effectful calls: its journal refuses writes (read-only directory,
 *       disk down to the reserve, not opened, configuration invalid) or its shared store cannot be reached;</li>
 *   <li>{@code UP} otherwise. Intents waiting for a person do not make it {@code DOWN}: they are counted.</li>
 * </ul>
 * Details: {@code journal} ({@code writable}, or why not), {@code reserve_bytes} (bytes the disk can take
 * before the journal's reserve is reached), {@code unresolved} (intents a person must check),
 * {@code approvals_waiting}, {@code oldest_waiting_s} (the oldest waiting approval's age), {@code store}.
 *
 * @param status  {@code UP}, {@code DOWN} or {@code UNKNOWN}
 * @param details the details, in the order above
 */
public record EffectfulHealth(String status, Map<String, Object> details) {

    /** The health read from the agent now. */
    public static EffectfulHealth check() {
        return of(AgentStatus.read(), Instant.now());
    }

    /** The health {@code s} describes, ages counted at {@code now}. */
    public static EffectfulHealth of(AgentStatus s, Instant now) {
        Map<String, Object> d = new LinkedHashMap<>();
        if (!s.agentLoaded()) {
            d.put("agent", "not loaded");
            return new EffectfulHealth("UNKNOWN", d);
        }
        if (!s.engineRunning()) {
            if (s.journalProblem().isPresent()) {
                d.put("journal", s.journalProblem().get());
                return new EffectfulHealth("DOWN", d);
            }
            d.put("agent", "engine not started");
            return new EffectfulHealth("UNKNOWN", d);
        }
        d.put("journal", s.journalProblem().orElse("writable"));
        d.put("reserve_bytes", s.bytesBeforeRefusal());
        d.put("unresolved", s.unresolved().stream().filter(AgentStatus.HeldIntent::needsPerson).count());
        d.put("approvals_waiting", s.approvals().size());
        d.put("oldest_waiting_s", s.approvals().stream().map(AgentStatus.WaitingApproval::requested)
                .filter(t -> t != null).mapToLong(t -> Math.max(0, now.getEpochSecond() - t.getEpochSecond()))
                .max().orElse(0));
        String store = s.store().orElse("");
        d.put("store", s.storeProblem().map(p -> store + ": " + p).orElse(store));
        boolean down = s.journalProblem().isPresent() || s.storeProblem().isPresent();
        return new EffectfulHealth(down ? "DOWN" : "UP", d);
    }
}
