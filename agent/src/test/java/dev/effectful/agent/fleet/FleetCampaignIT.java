package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.ForkedApp;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short fleet crash campaign CI runs: three host JVMs on one PostgreSQL, 30 seeded faults (kill -9 of
 * hosts and of the database, freezes of the database past the store timeout and of a host holding a lease),
 * then nothing applied twice, nothing lost, every held intent listed by journal --store postgres unresolved.
 * The full campaign is {@code reliability/fleet.sh}.
 */
class FleetCampaignIT {

    @Test
    void thirtyFaultsAcrossThreeHostsAndTheDatabaseNothingDuplicatedNothingLost() throws Exception {
        long seed = Long.getLong("fleet.seed", 20261203L);
        Path work = Path.of("target/fleet-campaign-it").toAbsolutePath();
        FleetCampaign.deleteTree(work);
        FleetCampaign.Result r = new FleetCampaign(new FleetCampaign.Options(seed, 20, 4, 3, 3, 2, work,
                ForkedApp.AGENT_JAR.toAbsolutePath(), FleetCampaign.testClasses(), System.getProperty("java.home")))
                .run(System.out);
        System.out.println(r.table());
        Files.writeString(work.resolve("fleet.json"), r.toJson());

        assertThat(r.faults()).isGreaterThanOrEqualTo(30);
        assertThat(r.hostKills()).isEqualTo(20);
        assertThat(r.dbKills()).isEqualTo(4);
        assertThat(r.dbFreezes()).isEqualTo(3);
        assertThat(r.hostFreezes()).isEqualTo(3);
        assertThat(r.effects()).as("the hosts did real work").isGreaterThan(r.tasks() * 5);
        assertThat(r.duplicates()).as("effects applied twice: " + r.problems()).isZero();
        assertThat(r.lost()).as("lost intents: " + r.problems()).isZero();
        assertThat(r.heldListed()).as("every held intent listed by journal --store postgres unresolved: " + r.problems())
                .isEqualTo(r.held());
        assertThat(r.settleableHeld()).as("held after a last call although a probe or a key settles them: " + r.problems())
                .isZero();
        assertThat(r.problems()).isEmpty();
    }
}
