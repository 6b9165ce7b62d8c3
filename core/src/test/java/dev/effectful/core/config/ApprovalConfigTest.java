package dev.effectful.core.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code effectful.approval}, {@code effectful.approval.timeout} and {@code effectful.approval.elicit}: read from
 * every source, and fail closed.
 */
class ApprovalConfigTest {

    @Test
    void toolNamesAndKindsFromAPropertyTheEnvironmentOrTheAgentArgument() {
        Properties sys = new Properties();
        sys.setProperty("effectful.approval", "MONEY, delete_account");
        EffectfulConfig.Approvals fromProperty = EffectfulConfig.read(null, sys, Map.of()).config().approvals();
        assertThat(fromProperty.names()).isEqualTo(Set.of("money", "delete_account"));
        assertThat(fromProperty.names("delete_account", "destructive")).isTrue();
        assertThat(fromProperty.names("charge", "money")).as("by kind").isTrue();
        assertThat(fromProperty.names("send_email", "send")).isFalse();
        assertThat(fromProperty.timeout()).as("the default").isEqualTo(Duration.ofHours(24));

        EffectfulConfig.Loaded env = EffectfulConfig.read(null, new Properties(),
                Map.of("EFFECTFUL_APPROVAL", "refund", "EFFECTFUL_APPROVAL_TIMEOUT", "30m"));
        assertThat(env.config().approvals().names()).containsExactly("refund");
        assertThat(env.config().approvals().timeout()).isEqualTo(Duration.ofMinutes(30));

        EffectfulConfig.Loaded arg = EffectfulConfig.read("journal=/tmp/j,approval=money+refund,approval.timeout=2h",
                new Properties(), Map.of());
        assertThat(arg.valid()).as(arg.errors().toString()).isTrue();
        assertThat(arg.config().approvals().names()).isEqualTo(Set.of("money", "refund"));
        assertThat(arg.config().approvals().timeout()).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void elicitationIsOnByDefaultAndTurnedOffByAnySource() {
        assertThat(EffectfulConfig.read(null, new Properties(), Map.of()).config().approvals().elicit()).isTrue();
        Properties sys = new Properties();
        sys.setProperty("effectful.approval.elicit", "false");
        assertThat(EffectfulConfig.read(null, sys, Map.of()).config().approvals().elicit()).isFalse();
        assertThat(EffectfulConfig.read(null, new Properties(), Map.of("EFFECTFUL_APPROVAL_ELICIT", "false")).config()
                .approvals().elicit()).isFalse();
        EffectfulConfig.Loaded arg = EffectfulConfig.read("journal=/tmp/j,approval.elicit=false", new Properties(), Map.of());
        assertThat(arg.valid()).as(arg.errors().toString()).isTrue();
        assertThat(arg.config().approvals().elicit()).isFalse();
        EffectfulConfig.Loaded bad = EffectfulConfig.read("journal=/tmp/j,approval.elicit=maybe", new Properties(), Map.of());
        assertThat(bad.valid()).isFalse();
        assertThat(bad.errors().get(0).message()).contains("effectful.approval.elicit=maybe");
    }

    @Test
    void anInvalidValueFailsClosedNamingTheKey() {
        EffectfulConfig.Loaded timeout = EffectfulConfig.read("journal=/tmp/j,approval.timeout=soon", new Properties(),
                Map.of());
        assertThat(timeout.valid()).isFalse();
        assertThat(timeout.errors().get(0).message()).contains("effectful.approval.timeout=soon", "not a duration");
        EffectfulConfig.Loaded names = EffectfulConfig.read("journal=/tmp/j,approval=money+<script>", new Properties(),
                Map.of());
        assertThat(names.valid()).isFalse();
        assertThat(names.errors().get(0).message()).contains("effectful.approval", "neither a tool name nor a kind");
    }
}
