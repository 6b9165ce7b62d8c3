package dev.effectful.agent.installer;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which tool signatures the engine writes without Jackson, so that no warm-up is started for them. */
class JsonWarmUpTest {

    @Test
    void stringsIntegersAndBooleansArePlain() {
        assertThat(JsonWarmUp.plain("(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;")).isTrue();
        assertThat(JsonWarmUp.plain("(IJSBZLjava/lang/Integer;Ljava/lang/Long;Ljava/lang/Boolean;)V")).isTrue();
        assertThat(JsonWarmUp.plain("()V")).isTrue();
    }

    @Test
    void anythingElseNeedsJackson() {
        assertThat(JsonWarmUp.plain("(Lapp/Order;)Ljava/lang/String;")).isFalse();
        assertThat(JsonWarmUp.plain("(Ljava/lang/String;)Ljava/util/List;")).isFalse();
        assertThat(JsonWarmUp.plain("(D)V")).isFalse();
        assertThat(JsonWarmUp.plain("(F)V")).isFalse();
        assertThat(JsonWarmUp.plain("(C)V")).isFalse();
        assertThat(JsonWarmUp.plain("([Ljava/lang/String;)V")).isFalse();
        assertThat(JsonWarmUp.plain("(Ljava/lang/Object;)V")).isFalse();
    }
}
