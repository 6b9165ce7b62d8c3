package dev.effectful.agent.reliability;

import dev.effectful.agent.e2e.ForkedApp;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short soak CI runs on every submission: 75 s of calls from two threads with the real
 * agent, one cycle file per second and 5 s retention, judged by the same {@link SoakVerdict} as
 * {@code reliability/soak.sh} (10 minutes): heap flat, cycle files and the index bounded, held intents
 * kept and readable by the CLI, nothing applied twice.
 */
class SoakIT {

    @Test
    void seventyFiveSecondsOfCallsStayBounded() throws Exception {
        long seconds = Long.getLong("soak.seconds", 75);
        Path work = Path.of("target/soak-it");
        CrashCampaign.deleteTree(work);
        SoakVerdict v = new Soak(new Soak.Options(seconds, 5, 5, 10_000, work.resolve("soak"), ForkedApp.AGENT_JAR,
                CrashCampaign.testClasses(), System.getProperty("java.home"))).run();
        System.out.println(v.table());
        Files.writeString(work.resolve("soak.json"), v.toJson());

        assertThat(v.checks()).hasSizeGreaterThanOrEqualTo(10);
        assertThat(v.checks()).extracting(SoakVerdict.Check::name).contains("no phantom unresolved");
        assertThat(v.checks()).allSatisfy(c -> assertThat(c.passed()).as(c.name() + ": " + c.detail()).isTrue());
    }
}
