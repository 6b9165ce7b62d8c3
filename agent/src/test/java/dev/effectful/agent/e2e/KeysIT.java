package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.KeysApp;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Intent keys end to end, on every JDK: two tasks whose plain-joined key material was the same run
 * two bodies; a task id with a line break cannot forge a log line; a journal whose {@code secret.key}
 * is lost refuses the {@code @Redact @IntentKey} call (and runs the others) until a person
 * acknowledges the new secret; an {@code @IntentKey} bean that hides its id is warned about.
 */
class KeysIT extends ForkedJvmTest {

    @EveryJdk
    void twoTasksWhosePlainJoinWasOneKeyRunTwoBodies(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = forked(jdk, journal).main(KeysApp.class, "collide")
                .run(tmp.resolve("logs"), Duration.ofSeconds(60));
        Map<String, String> r = app.results();
        assertThat(r.get("first")).isEqualTo("charged o-1 #1");
        assertThat(r.get("second")).as("task \"a\" with actor \"b|\" is not task \"a|b\"").isEqualTo("charged o-1 #2");
        assertThat(r.get("charges")).isEqualTo("2");
        List<JournalRecord> intents = JournalContents.of(journal).of(RecordType.INTENT);
        assertThat(intents).extracting(JournalRecord::task).containsExactly("a|b", "a");
        assertThat(intents.get(0).intentKey()).isNotEqualTo(intents.get(1).intentKey());
        assertThat(Files.readString(journal.resolve("key-format"))).as("a new journal holds only escaped keys")
                .isEqualTo("format 2\n");
    }

    @EveryJdk
    void aTaskIdWithALineBreakCannotForgeALogLine(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = forked(jdk, journal).main(KeysApp.class, "forge").sysprop("effectful.log.level", "debug")
                .run(tmp.resolve("logs"), Duration.ofSeconds(60));
        assertThat(app.results().get("forged")).startsWith("charged o-9");
        String stderr = app.stderr();
        // the id is quoted as a JSON string (Jackson's escapes), in the task and in the attempt id made from it
        assertThat(stderr).contains("effectful INFO: effectful attempt 1 task=\"t-1\\noutcome=ok effect_applied=yes"
                + "\\u001B[2K\" call=charge").contains(" attempt_id=\"t-1\\noutcome=ok effect_applied=yes");
        assertThat(stderr.lines()).as("no line of the agent's starts with the forged text")
                .noneMatch(l -> l.startsWith("outcome=")).noneMatch(l -> l.contains("\u001b"));
        for (String command : List.of("tasks", "show")) {
            CliRun cli = command.equals("show") ? CliRun.journal(journal, "show", "t-1\noutcome=ok effect_applied=yes\u001b[2K")
                    : CliRun.journal(journal, command);
            assertThat(cli.exitCode()).as(cli.toString()).isZero();
            assertThat(cli.stdout().lines()).as(cli.toString()).noneMatch(l -> l.startsWith("outcome="))
                    .noneMatch(l -> l.contains("\u001b")).anyMatch(l -> l.contains("t-1\\noutcome=ok"));
        }
    }

    @EveryJdk
    void aLostSecretRefusesTheRedactedKeyUntilAPersonAcknowledgesTheNewOne(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        Map<String, String> first = forked(jdk, journal).main(KeysApp.class, "secret", "1")
                .run(tmp.resolve("logs1"), Duration.ofSeconds(60)).results();
        assertThat(first.get("pay")).isEqualTo("paid o-7 #1");
        assertThat(journal.resolve("secret.key.id")).as("the journal records which secret its keys need").exists();

        Files.delete(journal.resolve("secret.key"));
        ForkedApp second = forked(jdk, journal).main(KeysApp.class, "secret", "2")
                .run(tmp.resolve("logs2"), Duration.ofSeconds(60));
        Map<String, String> r = second.results();
        assertThat(r.get("pay")).startsWith("THROWN {\"outcome\":\"permanent\",\"effect_applied\":\"no\"")
                .contains(journal.resolve("secret.key").toString()).contains("secret --acknowledge-new");
        assertThat(r.get("payments")).as("the MONEY body did not run under a silently new key").isEqualTo("0");
        assertThat(r.get("note")).as("a key that needs no secret runs").isEqualTo("noted n-2 #1");
        assertThat(second.stderr()).contains("secret.key").contains("was missing");
        assertThat(second.stderr()).doesNotContain("tok-4242");

        CliRun status = CliRun.journal(journal, "secret");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(1);
        assertThat(status.stdout()).contains("acknowledge-new");
        CliRun ack = CliRun.journal(journal, "secret", "--acknowledge-new");
        assertThat(ack.exitCode()).as(ack.toString()).isZero();
        assertThat(journal.resolve("secret.key.acknowledged")).exists();

        Map<String, String> third = forked(jdk, journal).main(KeysApp.class, "secret", "3")
                .run(tmp.resolve("logs3"), Duration.ofSeconds(60)).results();
        assertThat(third.get("pay")).as("after the acknowledgement the call runs, keyed with the new secret")
                .isEqualTo("paid o-7 #1");
        assertThat(third.get("payments")).isEqualTo("1");
        assertThat(CliRun.journal(journal, "secret").exitCode()).isZero();
    }

    @EveryJdk
    void anIntentKeyBeanThatHidesItsIdIsWarnedAboutOnce(Jdk jdk) throws Exception {
        Path journal = tmp.resolve("journal");
        ForkedApp app = forked(jdk, journal).main(KeysApp.class, "bean")
                .run(tmp.resolve("logs"), Duration.ofSeconds(60));
        String stderr = app.stderr();
        String warning = "@IntentKey parameter 'order' of type";
        assertThat(stderr).contains(warning).contains("'id'").contains(KeysAppOrderName.NAME);
        assertThat(stderr.split(java.util.regex.Pattern.quote(warning), -1)).as("once per type").hasSize(2);
    }

    /** The bean's type name as the warning gives it. */
    private static final class KeysAppOrderName {
        static final String NAME = "dev.effectful.agent.e2e.apps.KeysTools$Order";
    }
}
