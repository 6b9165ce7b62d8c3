package dev.effectful.springboot;

import dev.effectful.AgentStatus;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The read-only actuator endpoint {@code effectful} ({@code /actuator/effectful}): the intents of this host's
 * journal that wait for a person, as {@code journal unresolved --json} names their fields, without the
 * arguments (those stay in the journal; the CLI shows them). Nothing here changes the journal: a person
 * resolves, approves or denies with the CLI or its console.
 *
 * <pre>
 * {"unresolved": [{"task", "actor", "call", "kind", "intent_key", "attempt", "state", "settles_on_next_call",
 *                  "needs_person", "started", "age_s"}],
 *  "approvals":  [{"task", "actor", "call", "kind", "intent_key", "requested", "age_s"}]}
 * </pre>
 * Without the agent: {@code {"agent": "not loaded", "unresolved": [], "approvals": []}}.
 */
@Endpoint(id = "effectful")
public class EffectfulEndpoint {

    /** The two lists, read from the agent now. */
    @ReadOperation
    public Map<String, Object> lists() {
        return lists(AgentStatus.read(), Instant.now());
    }

    static Map<String, Object> lists(AgentStatus s, Instant now) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (!s.agentLoaded()) {
            m.put("agent", "not loaded");
        } else if (!s.engineRunning()) {
            m.put("agent", "engine not started");
        }
        List<Map<String, Object>> unresolved = new ArrayList<>();
        for (AgentStatus.HeldIntent i : s.unresolved()) {
            Map<String, Object> r = row(i.task(), i.actor(), i.tool(), i.kind(), i.intentKey());
            if (i.attempt() != 0) {
                r.put("attempt", i.attempt());
            }
            r.put("state", i.state());
            r.put("settles_on_next_call", i.settlesOnNextCall());
            r.put("needs_person", i.needsPerson());
            time(r, "started", i.started(), now);
            unresolved.add(r);
        }
        List<Map<String, Object>> approvals = new ArrayList<>();
        for (AgentStatus.WaitingApproval a : s.approvals()) {
            Map<String, Object> r = row(a.task(), a.actor(), a.tool(), a.kind(), a.intentKey());
            time(r, "requested", a.requested(), now);
            approvals.add(r);
        }
        m.put("unresolved", unresolved);
        m.put("approvals", approvals);
        return m;
    }

    private static Map<String, Object> row(String task, String actor, String call, String kind, String key) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("task", task);
        if (!actor.isEmpty()) {
            r.put("actor", actor);
        }
        r.put("call", call);
        r.put("kind", kind);
        r.put("intent_key", key);
        return r;
    }

    private static void time(Map<String, Object> r, String name, Instant at, Instant now) {
        if (at != null) {
            r.put(name, at.toString());
            r.put("age_s", Math.max(0, now.getEpochSecond() - at.getEpochSecond()));
        }
    }
}
