package dev.effectful.agent.integration;

import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig.TrustTask;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whose task entry a server believes, and what task it then binds. Runs without the agent: {@link Task}
 * is then the plain context holder it always is.
 */
class RemoteTaskBindingTest {

    /** The shape of the SDK's request: a record with a {@code meta()} map. */
    public record Request(Map<String, Object> meta) {
    }

    private static final Duration MAX = Duration.ofMinutes(5);

    @Test
    void aCallInATaskCarriesItAndKeepsTheApplicationsOtherMeta() {
        RemoteTaskBinding b = new RemoteTaskBinding(MAX, TrustTask.LOOPBACK);
        try (Task t = Task.open("ord-1", "alice", Duration.ofSeconds(30))) {
            Map<String, Object> meta = b.metaFor(Map.of("progressToken", "p"));

            assertThat(meta).containsEntry("progressToken", "p");
            @SuppressWarnings("unchecked")
            Map<String, Object> entry = (Map<String, Object>) meta.get(RemoteTasks.KEY);
            assertThat(entry).containsEntry("id", "ord-1").containsEntry("actor", "alice");
            assertThat((Long) entry.get("budget_ms")).isBetween(1L, 30_000L);
        }
    }

    @Test
    void anEntryTheApplicationSetIsKeptAndNoTaskSendsNothing() {
        RemoteTaskBinding b = new RemoteTaskBinding(MAX, TrustTask.LOOPBACK);
        assertThat(b.metaFor(null)).isNull();
        try (Task t = Task.open("ord-1", Duration.ofSeconds(30))) {
            assertThat(b.metaFor(Map.of(RemoteTasks.KEY, "mine"))).isNull();
        }
    }

    @Test
    void aLoopbackCallerIsBelievedWithABudgetNoLargerThanEitherSide() {
        RemoteTaskBinding b = new RemoteTaskBinding(Duration.ofSeconds(10), TrustTask.LOOPBACK);
        Object exchange = call(b, "http", null, "127.0.0.1");

        try (Task t = b.open("mcp", exchange, request("ord-1", "alice", 60_000))) {
            assertThat(t.id()).isEqualTo("ord-1");
            assertThat(t.actor()).isEqualTo("alice");
            assertThat(t.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(10));
        }
        try (Task t = b.open("mcp", exchange, request("ord-1", "alice", 1_000))) {
            assertThat(t.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(1));
        }
        assertThat(Task.current()).isEmpty();
    }

    @Test
    void stdioIsBelievedAndAnUnknownOrRemoteCallerIsNotByDefault() {
        RemoteTaskBinding b = new RemoteTaskBinding(MAX, TrustTask.LOOPBACK);

        try (Task t = b.open("mcp", call(b, "stdio", null, null), request("t", "a", 1000))) {
            assertThat(t).isNotNull();
        }
        assertThat(b.open("mcp", call(b, "http", null, "10.1.2.3"), request("t", "a", 1000))).isNull();
        assertThat(b.open("mcp", new Object(), request("t", "a", 1000))).isNull();
    }

    @Test
    void aPrincipalIsTheActorWhateverTheEntrySays() {
        RemoteTaskBinding b = new RemoteTaskBinding(MAX, TrustTask.LOOPBACK);
        try (Task t = b.open("mcp", call(b, "http", "bob", "10.1.2.3"), request("t", "alice", 1000))) {
            assertThat(t.actor()).isEqualTo("bob");
        }
    }

    @Test
    void trueBelievesEveryoneAndFalseNoOne() {
        RemoteTaskBinding everyone = new RemoteTaskBinding(MAX, TrustTask.TRUE);
        try (Task t = everyone.open("mcp", call(everyone, "http", null, "10.1.2.3"), request("t", "a", 1000))) {
            assertThat(t).isNotNull();
        }
        RemoteTaskBinding noOne = new RemoteTaskBinding(MAX, TrustTask.FALSE);
        assertThat(noOne.open("mcp", call(noOne, "stdio", null, null), request("t", "a", 1000))).isNull();
        assertThat(noOne.open("mcp", call(noOne, "http", "bob", "127.0.0.1"), request("t", "a", 1000))).isNull();
    }

    @Test
    void aMalformedEntryBindsNothingAndACurrentTaskWins() {
        RemoteTaskBinding b = new RemoteTaskBinding(MAX, TrustTask.TRUE);
        Map<String, Object> junk = new HashMap<>();
        junk.put("id", 42);
        junk.put("budget_ms", 1000);
        assertThat(b.open("mcp", new Object(), new Request(Map.of(RemoteTasks.KEY, junk)))).isNull();
        assertThat(b.open("mcp", new Object(), new Request(null))).isNull();
        assertThat(b.open("mcp", new Object(), "not a request")).isNull();
        try (Task own = Task.open("own", Duration.ofSeconds(5))) {
            assertThat(b.open("mcp", new Object(), request("t", "a", 1000))).isNull();
            assertThat(Task.current()).containsSame(own);
        }
    }

    @Test
    void aCallerFollowsTheExchangeAcrossThreadsAndIntoTheSynchronousWrapper() throws Exception {
        RemoteTaskBinding b = new RemoteTaskBinding(MAX, TrustTask.LOOPBACK);
        Object async = call(b, "http", "carol", "192.0.2.1");
        Object sync = new Object();
        b.callers().same(async, sync);
        Task[] seen = new Task[1];
        Thread handler = new Thread(() -> {
            try (Task t = b.open("mcp", sync, request("t", "a", 1000))) {
                seen[0] = t;
            }
        });
        handler.start();
        handler.join(10_000);
        assertThat(seen[0]).isNotNull();
        assertThat(seen[0].actor()).isEqualTo("carol");
    }

    @Test
    void loopbackIsReadFromTheTextAlone() {
        for (String a : new String[]{"127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "[::1]", "::ffff:127.0.0.1", "::1%lo"}) {
            assertThat(RemoteCallers.isLoopback(a)).as(a).isTrue();
        }
        for (String a : new String[]{"10.0.0.1", "128.0.0.1", "127.0.0", "127.0.0.256", "localhost", "::2", "", "127.a.0.1"}) {
            assertThat(RemoteCallers.isLoopback(a)).as(a).isFalse();
        }
        assertThat(RemoteCallers.isLoopback(null)).isFalse();
    }

    /** An exchange made on a thread where the transport announced this caller, as the advice does it. */
    private static Object call(RemoteTaskBinding b, String transport, String principal, String address) {
        Object token = b.callers().enter(transport, principal, address);
        Object exchange = new Object();
        b.callers().bind(exchange);
        b.callers().done(token);
        return exchange;
    }

    private static Request request(String id, String actor, long budgetMs) {
        return new Request(Map.of(RemoteTasks.KEY, Map.of("id", id, "actor", actor, "budget_ms", budgetMs)));
    }
}
