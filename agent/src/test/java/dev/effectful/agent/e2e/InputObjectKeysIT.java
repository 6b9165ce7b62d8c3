package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.InputObjectApp;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @IntentKey} and {@code @Slot} on the fields and record components of a tool's one input object
 * (a record or class bound from the model's JSON, or the fields of a {@code Supplier}-style tool object):
 * a rephrased retry is the same intent (one effect, the stored value returned), another target or slot
 * is another. A real JVM with the agent jar, on JDK 17 and 25, against a loopback ledger.
 */
class InputObjectKeysIT {

    @TempDir
    static Path tmp;

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aRephrasedInputObjectIsTheSameIntentAndAnotherTargetIsNot(Jdk jdk) throws Exception {
        try (EffectLedger ledger = new EffectLedger()) {
            check(jdk, ledger);
        }
    }

    private static void check(Jdk jdk, EffectLedger ledger) throws Exception {
        Path dir = tmp.resolve("journal-" + jdk.name());
        ForkedApp app = ForkedApp.jdk(jdk).main(InputObjectApp.class)
                .sysprop("effectful.journal.dir", dir)
                .sysprop("ledger", ledger.url())
                .env("HOME", tmp.resolve("home").toString())
                .sysprop("user.home", tmp.resolve("home"))
                .run(tmp.resolve("logs-" + jdk.name()), Duration.ofSeconds(120));
        Map<String, String> r = app.results();
        String context = "stdout:\n" + app.stdout() + "\nstderr:\n" + app.stderr();
        JournalContents journal = JournalContents.of(dir);

        for (String[] shape : new String[][] {{"record", "refund", "other"}, {"class", "remind", "slot2"}, {"supplier", "send_sms", "other"}}) {
            String first = r.get(shape[0] + "_1");
            assertThat(first).as(shape[0] + ": " + context).startsWith("done:" + shape[1] + ":");
            assertThat(r.get(shape[0] + "_2")).as(shape[0] + " rephrased: the stored value").isEqualTo(first);
            String key = first.substring(("done:" + shape[1] + ":").length());
            assertThat(ledger.effects(shape[1], key)).as(shape[0] + ": one effect for the intent").isEqualTo(1);
            assertThat(journal.where(x -> key.equals(x.intentKey()) && x.type() == RecordType.DEDUP)).as(shape[0]).isNotEmpty();

            String other = r.get(shape[0] + "_" + shape[2]);
            assertThat(other).as(shape[0] + ": another target or slot is another intent").startsWith("done:" + shape[1] + ":")
                    .isNotEqualTo(first);
        }
        assertThat(app.stderr() + app.stdout()).as("keyed by meaning, not by call order")
                .doesNotContain("has no @IntentKey parameter");
    }
}
