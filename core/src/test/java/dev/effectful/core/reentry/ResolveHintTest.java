package dev.effectful.core.reentry;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ResolveHintTest {

    @Test
    void theCommandNamesTheAbsoluteJournalAndOneVerdictAShellCanRun() {
        String cmd = ResolveHint.forJournal(Path.of("relative/journal")).command("0123456789abcdef0123456789abcdef");
        assertThat(cmd).startsWith("java -jar ")
                .contains(" journal --dir " + Path.of("relative/journal").toAbsolutePath().normalize())
                .contains(" resolve 0123456789abcdef0123456789abcdef --applied yes --note \"what you checked\"")
                .doesNotContain("yes|no"); // a shell would read that as a pipe
    }

    @Test
    void inFleetModeTheVerdictGoesToTheSharedStoreWithTheHostsStoreSettings() {
        String key = "0123456789abcdef0123456789abcdef";
        ResolveHint fleet = ResolveHint.forStore("postgres", java.util.List.of("effectful.store.url", "effectful.store.user",
                "effectful.store.password"));
        assertThat(fleet.command(key)).contains(" journal --store postgres resolve " + key + " --applied yes")
                .doesNotContain("--dir");
        assertThat(fleet.sentence(key)).contains("EFFECTFUL_STORE_URL", "EFFECTFUL_STORE_USER", "EFFECTFUL_STORE_PASSWORD",
                "--result JSON");
    }

    @Test
    void theConsoleCommandServesTheSameJournalOrStore() {
        String dir = Path.of("relative/journal").toAbsolutePath().normalize().toString();
        assertThat(ResolveHint.forJournal(Path.of("relative/journal")).consoleCommand())
                .endsWith(" journal --dir " + dir + " console");
        assertThat(ResolveHint.forStore("postgres", java.util.List.of()).consoleCommand())
                .endsWith(" journal --store postgres console");
        assertThat(ResolveHint.generic().consoleCommand()).isEqualTo("java -jar effectful-agent.jar journal console");
    }

    @Test
    void pathsWithSpacesOrQuotesAreQuotedForTheShell() {
        assertThat(ResolveHint.shellWord("/srv/app/effectful-journal")).isEqualTo("/srv/app/effectful-journal");
        assertThat(ResolveHint.shellWord("/srv/my app/j")).isEqualTo("'/srv/my app/j'");
        assertThat(ResolveHint.shellWord("/srv/bob's/j")).isEqualTo("'/srv/bob'\\''s/j'");
    }
}
