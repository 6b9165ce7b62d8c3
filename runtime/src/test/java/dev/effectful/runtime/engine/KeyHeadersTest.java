package dev.effectful.runtime.engine;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.ItemKey;
import dev.effectful.Items;
import dev.effectful.Outcome;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;
import dev.effectful.core.keys.IntentKeys;
import dev.effectful.core.log.LogSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the HTTP-client advice is told to send ({@link KeyHeaders#forRequest}) inside tool bodies run by a
 * real engine: the intent key only inside the body of a tool with a key header, the item's key inside
 * {@code Attempt.sending}, nothing for a nested tool without one; and a key seen going out ({@code key_sent})
 * lets an unknown attempt run again with the same key, while a key header no request carried does not.
 */
class KeyHeadersTest {

    @RegisterExtension
    static final EngineHarness.PerClass harness = EngineHarness.perClass();

    @RegisterExtension
    static final LogCapture WARNINGS = LogCapture.of(LogSink.Level.WARN, LogSink.Level.WARN);

    /** A batch row. */
    public record Row(@ItemKey String id) {
    }

    public static class Tools {
        final List<String[]> seen = new ArrayList<>();
        final AtomicInteger bodies = new AtomicInteger();
        final Map<String, String> itemSeen = new ConcurrentHashMap<>();
        volatile boolean fail;

        @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", keyHeader = "Idempotency-Key")
        public String createOrder(@IntentKey String customer, String note) {
            bodies.incrementAndGet();
            seen.add(coveredClient());
            String key = Attempt.current().orElseThrow().intentKey();
            harness.call(this, "lookUp", customer);
            seen.add(coveredClient());
            if (fail) {
                throw new IllegalStateException("the service answered 500");
            }
            return key;
        }

        @EffectfulTool(kind = EffectKind.CREATE, name = "create_plain")
        public String createPlain(@IntentKey String customer) {
            bodies.incrementAndGet();
            seen.add(KeyHeaders.forRequest());
            if (fail) {
                throw new IllegalStateException("the service answered 500");
            }
            return "ok";
        }

        @EffectfulTool(kind = EffectKind.READ, name = "look_up")
        public String lookUp(@IntentKey String customer) {
            seen.add(KeyHeaders.forRequest());
            return "found";
        }

        @EffectfulTool(kind = EffectKind.CREATE, name = "write_rows", keyHeader = "Idempotency-Key")
        public Outcome<Void> writeRows(@IntentKey String sheet, @Items List<Row> rows) {
            Attempt attempt = Attempt.current().orElseThrow();
            itemSeen.put("(none)", String.valueOf(header()));
            for (Row r : rows) {
                try (Attempt.Scope s = attempt.sending(r.id())) {
                    itemSeen.put(r.id(), header());
                    itemSeen.put(r.id() + ".requestKey", attempt.requestKey());
                }
            }
            try (Attempt.Scope s = attempt.sending("not-in-this-batch")) {
                itemSeen.put("stranger", String.valueOf(header()));
            }
            itemSeen.put("batch", attempt.intentKey());
            return Outcome.ok(null);
        }

        @EffectfulTool(kind = EffectKind.CREATE, name = "silent_order", keyHeader = "Idempotency-Key")
        public String silentOrder(@IntentKey String customer) {
            bodies.incrementAndGet();
            if (fail) {
                throw new IllegalStateException("the service answered 500");
            }
            return "sent through a client the agent does not cover";
        }

        /** What the HTTP advice does on a request: takes the header, puts it on, reports it sent. */
        private static String[] coveredClient() {
            String[] h = KeyHeaders.forRequest();
            if (h != null) {
                KeyHeaders.sent(h[1]);
            }
            return h;
        }

        @EffectfulTool(kind = EffectKind.CREATE, name = "stripe_like", keyHeader = "Idempotency-Key")
        public String stripeLike(@IntentKey String customer, boolean passesRequestKey) {
            // as a client library that sets the header itself: the advice keeps it and reports it
            KeyHeaders.applicationKept(passesRequestKey ? Attempt.current().orElseThrow().requestKey()
                    : java.util.UUID.randomUUID().toString());
            return "created";
        }

        @EffectfulTool(kind = EffectKind.CREATE, name = "bad_header", keyHeader = "Idempotency Key")
        public String badHeader(@IntentKey String customer) {
            bodies.incrementAndGet();
            return "sent";
        }

        private static String header() {
            String[] h = coveredClient();
            return h == null ? null : h[0] + ": " + h[1];
        }
    }

    @Test
    void theIntentKeyOnlyInsideTheBodyOfTheToolThatDeclaresTheHeader() {
        Tools tools = new Tools();
        Completion c;
        try (Task t = Task.open("t-body", Duration.ofSeconds(30))) {
            c = harness.call(tools, "createOrder", "alice", "a mug");
        }
        String key = (String) c.value();
        assertThat(key).matches("[0-9a-f]{32}");
        assertThat(tools.seen).hasSize(3);
        assertThat(tools.seen.get(0)).containsExactly("Idempotency-Key", key);
        assertThat(tools.seen.get(1)).as("a nested READ tool without a key header runs as its own attempt: none").isNull();
        assertThat(tools.seen.get(2)).as("back in the outer body").containsExactly("Idempotency-Key", key);
        assertThat(KeyHeaders.forRequest()).as("after the call").isNull();

        try (Task t = Task.open("t-plain", Duration.ofSeconds(30))) {
            harness.call(tools, "createPlain", "alice");
        }
        assertThat(tools.seen.get(3)).as("a tool without a key header").isNull();
    }

    @Test
    void aKeySeenGoingOutLetsAnUnknownAttemptRunAgainWithTheSameKey() {
        Tools withHeader = new Tools();
        Completion[] keyable = lostThenRepeated(withHeader, "t-keyable", "createOrder",
                new Object[] {"bob", "a plate"}, "bob", "the plate, as asked before");
        assertThat(keyable[0].thrown()).isInstanceOf(ToolOutcomeException.class);
        assertThat(keyable[0].thrown().getMessage()).contains("\"outcome\":\"unknown\"");
        assertThat(keyable[1].thrown()).isNull();
        assertThat(withHeader.bodies).as("run again: the service dedups on the header").hasValue(2);
        assertThat(withHeader.seen.get(0)).isEqualTo(withHeader.seen.get(3)).contains((String) keyable[1].value());

        Tools without = new Tools();
        Completion retry = lostThenRepeated(without, "t-not-keyable", "createPlain", new Object[] {"bob"}, "bob")[1];
        assertThat(retry.thrown()).isInstanceOf(ToolOutcomeException.class);
        assertThat(without.bodies).as("the same CREATE without a key header is held").hasValue(1);

        Tools uncovered = new Tools();
        retry = lostThenRepeated(uncovered, "t-uncovered", "silentOrder", new Object[] {"carl"}, "carl")[1];
        assertThat(retry.thrown()).isInstanceOf(ToolOutcomeException.class);
        assertThat(retry.thrown().getMessage()).contains("\"outcome\":\"unknown\"");
        assertThat(uncovered.bodies).as("a key header whose key no covered client sent: held").hasValue(1);
    }

    /**
     * In task {@code task}: a call of {@code method} whose body fails (its answer lost), then the repeat, which
     * runs to the end if the engine lets it. The two completions, in that order.
     */
    private static Completion[] lostThenRepeated(Tools tools, String task, String method, Object[] first, Object... again) {
        tools.fail = true;
        try (Task t = Task.open(task, Duration.ofSeconds(30))) {
            Completion lost = harness.call(tools, method, first);
            tools.fail = false;
            return new Completion[] {lost, harness.call(tools, method, again)};
        }
    }

    @Test
    void batchItemsCarryTheirItemKeysOnlyWhenTheBodyNamesAnItemItSends() {
        Tools tools = new Tools();
        try (Task t = Task.open("t-batch", Duration.ofSeconds(30))) {
            Completion c = harness.call(tools, "writeRows", "sheet-9", List.of(new Row("r1"), new Row("r2")));
            assertThat(c.thrown()).isNull();
        }
        String batch = tools.itemSeen.get("batch");
        String k1 = IntentKeys.forItem(batch, "r1");
        String k2 = IntentKeys.forItem(batch, "r2");
        assertThat(tools.itemSeen.get("r1")).isEqualTo("Idempotency-Key: " + k1);
        assertThat(tools.itemSeen.get("r2")).isEqualTo("Idempotency-Key: " + k2);
        assertThat(tools.itemSeen.get("r1.requestKey")).as("Attempt derives the key the journal uses").isEqualTo(k1);
        assertThat(tools.itemSeen.get("(none)")).as("never the batch's own key").isEqualTo("null");
        assertThat(tools.itemSeen.get("stranger")).as("an item this attempt does not send").isEqualTo("null");
    }

    @Test
    void aKeyHeaderNoRequestCarriedIsNamedInAWarning() {
        Tools tools = new Tools();
        try (Task t = Task.open("t-silent", Duration.ofSeconds(30))) {
            harness.call(tools, "silentOrder", "dan");
            harness.call(tools, "createOrder", "dan", "sent through a covered client");
        }
        assertThat(WARNINGS.messages()).filteredOn(w -> w.contains("carrying the key")).hasSize(1)
                .allMatch(w -> w.contains("silent_order") && w.contains("requestKey()"));
    }

    @Test
    void anApplicationsOwnKeyIsKeptAndNamedInAWarningUnlessItIsTheIntentKey() {
        Tools tools = new Tools();
        try (Task t = Task.open("t-own", Duration.ofSeconds(30))) {
            harness.call(tools, "stripeLike", "erin", true);
        }
        assertThat(WARNINGS.messages()).noneMatch(w -> w.contains("stripe_like"));
        try (Task t = Task.open("t-own-random", Duration.ofSeconds(30))) {
            harness.call(tools, "stripeLike", "frank", false);
        }
        assertThat(WARNINGS.messages()).filteredOn(w -> w.contains("stripe_like")).hasSize(1)
                .allMatch(w -> w.contains("kept as is") && w.contains("setIdempotencyKey"));
    }

    @Test
    void aHeaderNameNoClientCanSendRefusesTheToolInsteadOfCountingItKeyable() {
        Tools tools = new Tools();
        assertThatThrownBy(() -> harness.call(tools, "badHeader", "carol"))
                .hasMessageContaining("keyHeader = \"Idempotency Key\"").hasMessageContaining("not an HTTP header name");
        assertThat(tools.bodies).hasValue(0);
    }
}
