package dev.effectful.it.events;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.it.events.apps.MicrometerApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** An application with Micrometer's SimpleMeterRegistry in the global registry sees the calls' meters. */
class MicrometerIT {

    @TempDir
    Path dir;

    @Test
    void theGlobalRegistryCountsCallsByToolOutcomeAndPath() throws Exception {
        ForkedApp app = ForkedApp.jdk(Jdk.current()).sysprop("effectful.journal.dir", dir.resolve("journal"))
                .classPath(Classpaths.without("opentelemetry"))
                .main(MicrometerApp.class, Files.createDirectories(dir.resolve("marks")).toString())
                .run(dir.resolve("logs"), Duration.ofSeconds(90));
        assertThat(app.stdout().lines().filter(l -> l.startsWith("METER "))).contains(
                "METER effectful.calls {effectful.outcome=ok, effectful.reentry=new, gen_ai.tool.name=send_email} 1",
                "METER effectful.calls {effectful.outcome=ok, effectful.reentry=dedup, gen_ai.tool.name=send_email} 1",
                "METER effectful.calls {effectful.outcome=unknown, effectful.reentry=held, gen_ai.tool.name=notify_customer} 1",
                "METER effectful.calls {effectful.outcome=retryable, effectful.reentry=refused, gen_ai.tool.name=charge} 1",
                "METER effectful.calls {effectful.outcome=ok, effectful.reentry=probe, gen_ai.tool.name=page_on_call} 1",
                "METER gen_ai.execute_tool.duration {effectful.outcome=ok, gen_ai.tool.name=send_email} count=2",
                "METER effectful.unresolved {} 1");
    }
}
