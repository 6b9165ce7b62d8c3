package dev.effectful.core.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/** Every mistake in the configuration is an error or a warning that names the fix, never silence. */
class ConfigFailClosedTest {

    private static EffectfulConfig.Loaded read(String args) {
        return EffectfulConfig.read(args, new Properties(), Map.of());
    }

    private static String onlyError(EffectfulConfig.Loaded l) {
        assertThat(l.valid()).isFalse();
        assertThat(l.errors()).hasSize(1);
        return l.errors().get(0).message();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "sync=intnet           | effectful.sync=intnet      | none, intent         | did you mean intent",
            "retention=7 days      | effectful.retention=7 days | 7d, 12h              | 7d",
            "retention=-1d         | effectful.retention=-1d    | 7d, 12h              | 7d",
            "failure=exceptions    | effectful.failure          | exception, json      | did you mean exception",
            "log.level=verbose     | effectful.log.level        | error, warn, info    | debug",
            "store=fil             | effectful.store            | local, file          | did you mean file",
            "journal.reserve=lots  | effectful.journal.reserve  | bytes, or with k     | k, m, g",
            "roll.cycle=weekly     | effectful.roll.cycle       | daily, hourly        | did you mean",
            "store=file,store.file.dir=/x,store.file.poll=2x | effectful.store.file.poll | 45s | 500ms",
            "task.budget=5 minutes | effectful.task.budget      | 30m                  | 45s",
    })
    void everyInvalidValueIsAnErrorNamingTheKeyTheValueAndWhatIsAllowed(String arg, String names, String allowed,
                                                                        String hint) {
        String m = onlyError(read("journal=/tmp/j," + arg));
        assertThat(m).contains(names, allowed, hint, "from the agent argument");
    }

    @Test
    void aBadValueFromASystemPropertyOrTheEnvironmentFailsClosedToo() {
        Properties sys = new Properties();
        sys.setProperty("effectful.sync", "always");
        EffectfulConfig.Loaded fromProperty = EffectfulConfig.read(null, sys, Map.of());
        assertThat(onlyError(fromProperty)).contains("effectful.sync=always", "from -Deffectful.sync");

        EffectfulConfig.Loaded fromEnv = EffectfulConfig.read(null, new Properties(), Map.of("EFFECTFUL_RETENTION", "week"));
        assertThat(onlyError(fromEnv)).contains("effectful.retention=week", "EFFECTFUL_RETENTION");
    }

    @Test
    void anEmptyJournalDirectoryFromAPropertyOrTheEnvironmentFailsClosedInsteadOfTheDefault() {
        Properties sys = new Properties();
        sys.setProperty("effectful.journal.dir", "");
        assertThat(onlyError(EffectfulConfig.read(null, sys, Map.of())))
                .contains("effectful.journal.dir is set but empty", "from -Deffectful.journal.dir");
        // an unset $VAR in a container spec: EFFECTFUL_JOURNAL_DIR=
        assertThat(onlyError(EffectfulConfig.read(null, new Properties(), Map.of("EFFECTFUL_JOURNAL_DIR", " "))))
                .contains("effectful.journal.dir is set but empty", "EFFECTFUL_JOURNAL_DIR");
        // the agent argument wins and is not empty: nothing wrong
        assertThat(EffectfulConfig.read("journal=/tmp/j", sys, Map.of()).valid()).isTrue();
    }

    @Test
    void aDurationOrSizeTooLargeToComputeWithIsAConfigurationErrorNotAnOverflowLater() {
        assertThat(onlyError(read("journal=/tmp/j,retention=99999999999999d")))
                .contains("effectful.retention=99999999999999d is too long", "at most 106751d");
        assertThat(onlyError(read("journal=/tmp/j,task.budget=P999999999D"))).contains("effectful.task.budget", "too long");
        assertThat(onlyError(read("journal=/tmp/j,retention=9999999999999999999d"))).contains("effectful.retention",
                "is not a duration");
        assertThat(onlyError(read("journal=/tmp/j,journal.reserve=99999999999g"))).contains("effectful.journal.reserve",
                "is not a size");
        assertThat(read("journal=/tmp/j,retention=36500d").config().retention()).isEqualTo(Duration.ofDays(36500));
    }

    @Test
    void aStoreWithoutItsRequiredKeyIsAnError() {
        // the stub store of this module's tests (store/ThirdStoreTest); PostgreSQL's: PostgresSettingsTest
        assertThat(onlyError(read("store=file"))).contains("effectful.store.file.dir");
    }

    @Test
    void anUnknownAgentArgumentKeyIsAnErrorNamingTheNearestKnownKey() {
        assertThat(onlyError(read("jurnal=/x"))).contains("unknown key 'jurnal'", "did you mean 'journal'",
                "effectful.journal.dir");
        assertThat(onlyError(read("journal=/x,sycn=intent"))).contains("'sycn'", "did you mean 'sync'");
        assertThat(onlyError(read("effectful.retension=1d"))).contains("'effectful.retension'", "'retention'");
        assertThat(onlyError(read("journal=/x,log.levl=debug"))).contains("'log.level'");
    }

    @Test
    void aSemicolonSeparatorIsMalformedAndNothingOfTheStringIsUsed() {
        EffectfulConfig.Loaded l = read("journal=a;sync=intent");
        assertThat(onlyError(l)).contains("malformed agent argument 'journal=a;sync=intent'", "','", "';'",
                "did you mean 'journal=a,sync=intent'");
        assertThat(l.config().journalDir().toString()).doesNotContain(";");
    }

    @Test
    void otherMalformedArgumentStrings() {
        assertThat(onlyError(read("journal"))).contains("'journal' is not key=value");
        assertThat(onlyError(read("journal=/x,,sync=intent"))).contains("is not key=value");
        assertThat(onlyError(read("journal=/x,sync="))).contains("sync= has no value");
        assertThat(onlyError(read("journal=/x,journal=/y"))).contains("effectful.journal.dir is given twice");
    }

    @Test
    void everyProblemIsReportedNotJustTheFirst() {
        EffectfulConfig.Loaded l = read("jurnal=/x,sync=intnet,retention=soon");
        assertThat(l.errors()).extracting(EffectfulConfig.Problem::key)
                .containsExactly("jurnal", "effectful.sync", "effectful.retention");
        assertThat(l.errorSummary()).startsWith("effectful configuration error: ")
                .contains("jurnal", "intnet", "soon", "refused");
    }

    @Test
    void unknownPropertiesAndVariablesAreWarningsNamingTheNearestKeyAndTheRestStands() {
        Properties sys = new Properties();
        sys.setProperty("effectful.sycn", "intent");
        sys.setProperty("effectful.journal.dir", "/tmp/j");
        sys.setProperty("unrelated.key", "x");
        EffectfulConfig.Loaded l = EffectfulConfig.read(null, sys,
                Map.of("EFFECTFUL_RETENTOIN", "1d", "EFFECTFUL_SYNC", "intent", "PATH", "/bin"));
        assertThat(l.valid()).isTrue();
        assertThat(l.warnings()).containsExactly(
                "effectful: unknown system property -Deffectful.sycn is ignored; did you mean -Deffectful.sync?",
                "effectful: unknown environment variable EFFECTFUL_RETENTOIN is ignored; did you mean EFFECTFUL_RETENTION?");
        assertThat(l.config().sync()).isEqualTo(EffectfulConfig.Sync.INTENT);
    }

    @Test
    void theTaskBudgetIsAKnownDurationKeyDefaultingToFiveMinutes() {
        assertThat(read("journal=/x").config().taskBudget()).isEqualTo(Duration.ofMinutes(5));
        assertThat(read("journal=/x,task.budget=90s").config().taskBudget()).isEqualTo(Duration.ofSeconds(90));
        Properties sys = new Properties();
        sys.setProperty(EffectfulConfig.TASK_BUDGET, "2m");
        EffectfulConfig.Loaded l = EffectfulConfig.read(null, sys, Map.of());
        assertThat(l.warnings()).isEmpty();
        assertThat(l.config().taskBudget()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void mcpTrustTaskIsLoopbackTrueOrFalseAndAnythingElseFailsClosed() {
        assertThat(read("journal=/x").config().mcpTrustTask()).isEqualTo(EffectfulConfig.TrustTask.LOOPBACK);
        assertThat(read("journal=/x,mcp.trust_task=false").config().mcpTrustTask()).isEqualTo(EffectfulConfig.TrustTask.FALSE);
        assertThat(read("journal=/x,mcp.trust_task=TRUE").config().mcpTrustTask()).isEqualTo(EffectfulConfig.TrustTask.TRUE);
        EffectfulConfig.Loaded typo = read("journal=/x,mcp.trust_task=yes");
        assertThat(typo.valid()).isFalse();
        assertThat(typo.errorSummary()).contains("effectful.mcp.trust_task=yes").contains("loopback, true, false");
    }

    @Test
    void mcpHintsAreOnByDefaultOffWithFalseAndAnythingElseFailsClosed() {
        assertThat(read("journal=/x").config().mcpHints()).isTrue();
        assertThat(read("journal=/x,mcp.hints=false").config().mcpHints()).isFalse();
        Properties sys = new Properties();
        sys.setProperty(EffectfulConfig.MCP_HINTS, "FALSE");
        EffectfulConfig.Loaded fromProperty = EffectfulConfig.read(null, sys, Map.of());
        assertThat(fromProperty.warnings()).isEmpty();
        assertThat(fromProperty.config().mcpHints()).isFalse();
        assertThat(EffectfulConfig.read(null, new Properties(), Map.of("EFFECTFUL_MCP_HINTS", "false")).config().mcpHints())
                .isFalse();
        EffectfulConfig.Loaded typo = read("journal=/x,mcp.hints=off");
        assertThat(typo.valid()).isFalse();
        assertThat(typo.errorSummary()).contains("effectful.mcp.hints=off").contains("true, false");
    }

    @Test
    void nearestIsByEditDistanceWithSwapsCountingOne() {
        assertThat(NearestWord.distance("sycn", "sync")).isEqualTo(1);
        assertThat(NearestWord.distance("jurnal", "journal")).isEqualTo(1);
        assertThat(NearestWord.nearest("retension", List.of("sync", "retention", "store"))).isEqualTo("retention");
    }

    @Test
    void aValidConfigurationHasNoProblems() {
        EffectfulConfig.Loaded l = read("journal=/tmp/j,sync=INTENT,retention=12h,failure=json,log.level=debug,"
                + "roll.cycle=hourly,journal.reserve=32m");
        assertThat(l.errors()).isEmpty();
        assertThat(l.isSet(EffectfulConfig.LOG_LEVEL)).isTrue();
        assertThat(l.isSet(EffectfulConfig.FAILURE)).isTrue();
        assertThat(l.isSet(EffectfulConfig.STORE)).isFalse();
    }
}
