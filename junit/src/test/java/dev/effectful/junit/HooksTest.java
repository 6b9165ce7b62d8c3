package dev.effectful.junit;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A tool over the user's own in-process fake, which calls the kit's hooks where its effect happens. */
class HooksTest {

    @RegisterExtension
    final EffectfulKit kit = new EffectfulKit();

    /** The user's fake SMS gateway: the effect is wrapped in the kit's hooks. */
    static final class FakeGateway {
        final FakeHooks hooks;
        final List<String> sent = new CopyOnWriteArrayList<>();

        FakeGateway(FakeHooks hooks) {
            this.hooks = hooks;
        }

        String send(String phone, String text) {
            return hooks.around(() -> {
                sent.add(phone + ":" + text);
                return "sms-" + sent.size();
            }, () -> "ERROR quota exceeded");
        }

        Optional<String> lastTo(String phone) {
            return sent.stream().filter(s -> s.startsWith(phone + ":")).reduce((a, b) -> b)
                    .map(s -> "sms-" + (sent.indexOf(s) + 1));
        }
    }

    /** A correct SEND tool over the gateway. */
    public static class SmsTools {
        private final FakeGateway gateway;

        public SmsTools(FakeGateway gateway) {
            this.gateway = gateway;
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms", probe = "findSms", check = "checkSms")
        public String sendSms(@IntentKey String phone, String text) {
            try {
                return gateway.send(phone, text);
            } catch (FakeRateLimited e) {
                throw new ToolOutcomeException(Outcome.<String>retryable(e.getMessage())
                        .withRetryAfterS(e.retryAfterSeconds()));
            }
        }

        public String findSms(String phone, String text) {
            return gateway.lastTo(phone).orElse(null);
        }

        void checkSms(String answer) {
            if (answer.startsWith("ERROR")) {
                throw new IllegalArgumentException(answer);
            }
        }
    }

    @Test
    void aToolOverTheUsersOwnFakePassesAllSix() {
        FakeHooks hooks = kit.hooks();
        FakeGateway gateway = new FakeGateway(hooks);
        Report report = kit.tool(SmsTools.class, () -> new SmsTools(gateway))
                .call(t -> t.sendSms("+4412345", "Your code is ready"))
                .rephrased(t -> t.sendSms("+4412345", "Hi! Your code is now ready."))
                .effects(gateway.sent::size)
                .faultsAt(hooks)
                .run();

        report.assertPassed();
        assertThat(report.verdicts()).filteredOn(v -> v.result() == Verdict.Result.PASS).extracting(Verdict::check)
                .contains(Check.KILL_MID_CALL, Check.DUPLICATE_DELIVERY, Check.ERROR_IN_SUCCESS, Check.SLOW_SUCCESS,
                        Check.RATE_LIMIT);
    }

    @Test
    void aGuardedViewRunsUnderTheRealEngine() {
        FakeGateway gateway = new FakeGateway(kit.hooks());
        SmsTools tools = kit.guard(new SmsTools(gateway));

        try (Task t = Task.open("order-1", Duration.ofSeconds(10))) {
            assertThat(tools.sendSms("+44", "hello")).isEqualTo("sms-1");
            assertThat(tools.sendSms("+44", "hello again, rephrased")).isEqualTo("sms-1");
        }
        assertThat(gateway.sent).hasSize(1);
        try (Task t = Task.open("order-2", Duration.ofSeconds(10))) {
            FakeHooks hooks = gateway.hooks;
            hooks.arm(new Fault.RateLimit(5));
            assertThatThrownBy(() -> tools.sendSms("+44", "x")).isInstanceOf(ToolOutcomeException.class)
                    .hasMessageContaining("\"retry_after_s\":5");
        }
    }
}
