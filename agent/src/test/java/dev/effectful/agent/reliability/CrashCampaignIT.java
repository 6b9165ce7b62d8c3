package dev.effectful.agent.reliability;

import dev.effectful.agent.e2e.ForkedApp;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short campaign CI runs on every submission: at least 30 real kill -9s at seeded
 * random moments across the whole script, then the ledger and the journal must agree that nothing
 * was applied twice, nothing happened unannounced, and only intents a person must settle are held.
 * The full campaign (500 kills) is {@code reliability/run.sh}.
 */
class CrashCampaignIT {

    @Test
    void thirtyKillsNothingDuplicatedNothingLost() throws Exception {
        long seed = Long.getLong("campaign.seed", 20261130L);
        int kills = Integer.getInteger("campaign.kills", 30);
        Path work = Path.of("target/reliability-it");
        CrashCampaign.deleteTree(work);
        Verdict v = new CrashCampaign(new CrashCampaign.Options(seed, kills, 4, 400, work.resolve("campaign"),
                ForkedApp.AGENT_JAR, CrashCampaign.testClasses(), System.getProperty("java.home"))).run(System.out);
        System.out.println(v.table());
        Files.writeString(work.resolve("results.json"), v.toJson());

        assertThat(v.kills()).isGreaterThanOrEqualTo(kills);
        assertThat(v.cutAttempts()).as("some kills landed inside a tool call, between its intent and its outcome")
                .isPositive();
        assertThat(v.duplicates()).as("effects applied twice: " + v.problems()).isZero();
        assertThat(v.lost()).as("lost intents: " + v.problems()).isZero();
        assertThat(v.settleableUnresolved()).as("held although a probe or the kind could settle it: " + v.problems()).isZero();
        assertThat(v.byTool().values()).allSatisfy(r -> assertThat(r.ok() + r.unresolved()).as(r.tool()).isEqualTo(r.steps()));
        assertThat(v.byTool().get("create_ticket").ok()).as("probe tools always settle").isEqualTo(v.byTool().get("create_ticket").steps());
    }
}
