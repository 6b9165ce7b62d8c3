package dev.effectful.runtime.engine;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;
import dev.effectful.core.log.LogSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every probe form the Javadoc and the README name, run by the real engine on a real journal: the
 * first attempt's answer is lost (unknown), so the repeat asks the probe. Found answers without
 * running the body; absent runs it.
 */
class ProbeFormsTest {

    @RegisterExtension
    static final EngineHarness.PerClass harness = EngineHarness.perClass();

    @RegisterExtension
    static final LogCapture ERRORS = LogCapture.of(LogSink.Level.ERROR, LogSink.Level.DEBUG);

    /** Each tool's first call loses its answer; later calls succeed. What the probe answers is set per test. */
    public static class Tools {
        final AtomicInteger bodies = new AtomicInteger();
        Object probeAnswer;

        private <T> T body(T value) {
            if (bodies.incrementAndGet() == 1) {
                throw new IllegalStateException("the answer was lost");
            }
            return value;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findPlain")
        public String sendPlain(@IntentKey String id) {
            return body("sent:" + id);
        }

        String findPlain(String id) {
            return (String) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findOptional")
        public String sendOptional(@IntentKey String id) {
            return body("sent:" + id);
        }

        @SuppressWarnings("unchecked")
        Optional<String> findOptional(String id) {
            return (Optional<String>) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findFlag")
        public String sendFlagged(@IntentKey String id) {
            return body("sent:" + id);
        }

        boolean findFlag(String id) {
            return (Boolean) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findBoxedFlag")
        public String sendBoxedFlag(@IntentKey String id) {
            return body("sent:" + id);
        }

        Boolean findBoxedFlag(String id) {
            return (Boolean) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.MONEY, probe = "findCharge")
        public int charge(@IntentKey String id) {
            return body(100);
        }

        Integer findCharge(String id) {
            return (Integer) probeAnswer;
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findNotice")
        public void notice(@IntentKey String id) {
            body(null);
        }

        Optional<String> findNotice(String id) {
            return Optional.ofNullable((String) probeAnswer);
        }

        /** The {@code @EffectfulTool} Javadoc's own example, word for word. */
        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findSentEmail")
        String sendEmail(@IntentKey String orderId, String subject, String body) {
            return body("sent:" + orderId);
        }

        Optional<String> findSentEmail(String orderId, String subject, String body) {
            return Optional.ofNullable((String) probeAnswer);
        }

        @EffectfulTool(kind = EffectKind.SEND, probe = "findWrong")
        public String sendWrong(@IntentKey String id) {
            return body("sent:" + id);
        }

        long findWrong(String id) {
            return 1L;
        }
    }

    /** First call lost, then the repeat: what the repeat returns (or the outcome JSON it throws). */
    private static Object repeatAfterLostAnswer(Tools tools, String method, Object... args) {
        try (Task t = Task.open("probe-" + method + "-" + tools.probeAnswer + "-" + System.nanoTime(), Duration.ofSeconds(30))) {
            Completion first = harness.call(tools, method, args);
            assertThat(first.thrown()).as("the first attempt's outcome").isInstanceOf(ToolOutcomeException.class);
            assertThat(first.thrown().getMessage()).contains("\"outcome\":\"unknown\"");
            Completion second = harness.call(tools, method, args);
            return second.thrown() != null ? "THROWN " + second.thrown().getMessage() : second.value();
        }
    }

    private static Tools answering(Object probeAnswer) {
        Tools tools = new Tools();
        tools.probeAnswer = probeAnswer;
        return tools;
    }

    @Test
    void probeOfTheToolsOwnType() {
        Tools found = answering("found:a");
        assertThat(repeatAfterLostAnswer(found, "sendPlain", "a")).isEqualTo("found:a");
        assertThat(found.bodies).hasValue(1);

        Tools absent = answering(null);
        assertThat(repeatAfterLostAnswer(absent, "sendPlain", "a")).as("null is absent").isEqualTo("sent:a");
        assertThat(absent.bodies).hasValue(2);
    }

    @Test
    void optionalProbe() {
        Tools found = answering(Optional.of("found:b"));
        assertThat(repeatAfterLostAnswer(found, "sendOptional", "b")).isEqualTo("found:b");
        assertThat(found.bodies).hasValue(1);

        Tools empty = answering(Optional.empty());
        assertThat(repeatAfterLostAnswer(empty, "sendOptional", "b")).isEqualTo("sent:b");
        assertThat(empty.bodies).hasValue(2);

        Tools nullOptional = answering(null);
        assertThat(repeatAfterLostAnswer(nullOptional, "sendOptional", "b")).as("a null Optional is absent").isEqualTo("sent:b");
    }

    @Test
    void booleanProbeFoundAnswersLikeADedupWithoutStoredResult() {
        Tools yes = answering(true);
        assertThat((String) repeatAfterLostAnswer(yes, "sendFlagged", "c"))
                .startsWith("{\"outcome\":\"ok\",\"effect_applied\":\"yes\"")
                .contains("already done").contains("the original result was not stored");
        assertThat(yes.bodies).hasValue(1);

        Tools no = answering(false);
        assertThat(repeatAfterLostAnswer(no, "sendFlagged", "c")).isEqualTo("sent:c");
        assertThat(no.bodies).hasValue(2);
    }

    @Test
    void boxedBooleanProbeNullIsAbsent() {
        Tools none = answering(null);
        assertThat(repeatAfterLostAnswer(none, "sendBoxedFlag", "d")).isEqualTo("sent:d");
        Tools yes = answering(Boolean.TRUE);
        assertThat((String) repeatAfterLostAnswer(yes, "sendBoxedFlag", "d")).contains("\"outcome\":\"ok\"");
        assertThat(yes.bodies).hasValue(1);
    }

    @Test
    void intToolWithIntegerProbe() {
        Tools found = answering(7);
        assertThat(repeatAfterLostAnswer(found, "charge", "e")).isEqualTo(7);
        assertThat(found.bodies).hasValue(1);

        Tools absent = answering(null);
        assertThat(repeatAfterLostAnswer(absent, "charge", "e")).as("null is absent").isEqualTo(100);
        assertThat(absent.bodies).hasValue(2);
    }

    @Test
    void voidToolProbe() {
        Tools found = answering("there");
        assertThat(repeatAfterLostAnswer(found, "notice", "f")).isNull();
        assertThat(found.bodies).hasValue(1);
        Tools absent = answering(null);
        repeatAfterLostAnswer(absent, "notice", "f");
        assertThat(absent.bodies).hasValue(2);
    }

    @Test
    void theJavadocExample() {
        Tools found = answering("sent earlier");
        assertThat(repeatAfterLostAnswer(found, "sendEmail", "ord-1", "Hello", "Body")).isEqualTo("sent earlier");
        assertThat(found.bodies).hasValue(1);
        Tools absent = answering(null);
        assertThat(repeatAfterLostAnswer(absent, "sendEmail", "ord-1", "Hello", "Body")).isEqualTo("sent:ord-1");
    }

    @Test
    void incompatibleProbeIsRefusedLoudlyAtFirstCall() {
        Tools tools = answering(null);
        // without a usable probe a SEND whose answer was lost is held for a person, never run again
        Object repeat = repeatAfterLostAnswer(tools, "sendWrong", "g");
        assertThat((String) repeat).startsWith("THROWN {\"outcome\":\"unknown\"");
        assertThat(tools.bodies).hasValue(1);
        assertThat(ERRORS.messages()).anySatisfy(e -> assertThat(e).contains("probe findWrong").contains("returns long")
                .contains("it must return String, Optional<String>, boolean or Boolean"));
    }
}
