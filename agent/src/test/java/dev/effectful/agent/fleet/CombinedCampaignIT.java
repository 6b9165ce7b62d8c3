package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.ForkedApp;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short combined crash campaign CI runs: the fleet campaign's three hosts on one PostgreSQL with the mixed
 * tools (blocking, CompletableFuture, Kotlin suspend, key header, approval given through the CLI during the run),
 * 24 host kill -9, 2 database kill -9, a database freeze, a host freeze, and (as root) 4 fills of a host's journal
 * disk, then nothing applied twice, nothing lost, every held intent listed, every approval recorded once. The full
 * campaign is {@code reliability/combined.sh}.
 */
class CombinedCampaignIT {

    @Test
    void mixedToolsAcrossThreeHostsThroughKillsAndAFillingDiskNothingDuplicatedNothingLost() throws Exception {
        long seed = Long.getLong("combined.seed", 20261208L);
        Path work = Path.of("target/combined-campaign-it").toAbsolutePath();
        FleetCampaign.deleteTree(work);
        FleetCampaign.Result r = new FleetCampaign(new FleetCampaign.Options(seed, 24, 2, 1, 1, 4, true, 2, work,
                ForkedApp.AGENT_JAR.toAbsolutePath(), FleetCampaign.testClasses(), System.getProperty("java.home")))
                .run(System.out);
        System.out.println(r.table());
        Files.writeString(work.resolve("combined.json"), r.toJson());

        assertThat(r.hostKills()).isEqualTo(24);
        assertThat(r.dbKills()).isEqualTo(2);
        assertThat(r.effects()).as("the hosts did real work").isGreaterThan(r.tasks() * 5);
        if (r.extra().disk().startsWith("skipped")) {
            System.out.println("disk fills " + r.extra().disk());
        } else {
            assertThat(r.extra().diskFills()).isEqualTo(4);
            assertThat(r.extra().diskResumed()).as("every host refused for a full disk went on after the free")
                    .isEqualTo(r.extra().diskRefused());
        }
        assertThat(r.extra().approvalIntents()).as("approval requests were made and given").isPositive();
        assertThat(r.duplicates()).as("effects applied twice: " + r.problems()).isZero();
        assertThat(r.lost()).as("lost intents: " + r.problems()).isZero();
        assertThat(r.heldListed()).as("every held intent listed by journal --store postgres unresolved: " + r.problems())
                .isEqualTo(r.held());
        assertThat(r.settleableHeld()).as("held after a last call although a probe or a key settles them: " + r.problems())
                .isZero();
        assertThat(r.problems()).isEmpty();
    }
}
