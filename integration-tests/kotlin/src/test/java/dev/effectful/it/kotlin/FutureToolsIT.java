package dev.effectful.it.kotlin;

import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.it.kotlin.apps.FutureApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AsyncToolMatrix} for a Java CompletableFuture (the work on the common pool after a delay; a
 * probe of the same shape), and the same guard through Byte Buddy's advice for a tool an
 * implementation inherits from its interface.
 */
class FutureToolsIT extends AsyncToolMatrix {

    @Override
    Class<?> app() {
        return FutureApp.class;
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void anInheritedFutureToolIsGuardedThroughTheAdviceToo(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        try (EffectLedger ledger = new EffectLedger()) {
            Map<String, String> r = ForkedApp.jdk(jdk).main(FutureApp.class, "inherited")
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url())
                    .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                    .run(tmp.resolve("logs"), Duration.ofSeconds(90)).results();
            assertThat(r).containsEntry("first", "done:sms:+800").containsEntry("second", "done:sms:+800");
            assertThat(ledger.effects("sms", "+800")).isEqualTo(1);
            JournalContents j = JournalContents.of(journal);
            assertThat(j.of(RecordType.OUTCOME)).singleElement()
                    .satisfies(o -> assertThat(o.result()).isEqualTo("\"done:sms:+800\""));
            assertThat(j.of(RecordType.DEDUP)).hasSize(1);
            assertNoPromiseInTheExport(journal);
        }
    }
}
