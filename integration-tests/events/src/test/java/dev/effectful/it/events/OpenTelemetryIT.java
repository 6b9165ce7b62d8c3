package dev.effectful.it.events;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.it.events.apps.ObservedTools;
import dev.effectful.it.events.apps.OtelApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with the OpenTelemetry SDK (in-memory exporters, registered as the global) and
 * the real agent: each guarded call is an {@code execute_tool} span under the application's span,
 * with the attributes of its path (new, dedup, held, refused, and a probe after kill -9 and a
 * restart), the body's own span under it, the metrics, and never the {@code @Redact} value.
 */
class OpenTelemetryIT {

    @TempDir
    Path dir;

    @Test
    void everyPathIsASpanUnderTheApplicationsSpanAndTheProbeFollowsACrash() throws Exception {
        Path journal = dir.resolve("journal");
        Path marks = java.nio.file.Files.createDirectories(dir.resolve("marks"));
        ForkedApp first = ForkedApp.jdk(Jdk.current()).sysprop("effectful.journal.dir", journal)
                .main(OtelApp.class, "first", marks.toString()).start(dir.resolve("logs1"));
        first.awaitLine(l -> l.startsWith("IN_BODY ship_order"), Duration.ofSeconds(60));
        first.kill9();

        Telemetry t1 = Telemetry.parse(first.stdout());
        String parent = first.results().get("parent");
        assertThat(t1.named("agent-run")).get().extracting(Telemetry.SpanLine::id).isEqualTo(parent);

        List<Telemetry.SpanLine> send = t1.tools("send_email");
        assertThat(send).hasSize(2);
        assertCommon(send.get(0), parent, "send_email", "send");
        assertThat(send.get(0).attrs()).containsEntry("effectful.reentry", "new").containsEntry("effectful.outcome", "ok")
                .containsEntry("effectful.effect_applied", "yes").containsEntry("effectful.attempt", "1")
                .containsKey("effectful.deadline_left_s").doesNotContainKey("error.type");
        assertThat(send.get(0).status()).isEqualTo("UNSET");
        assertThat(send.get(1).attrs()).containsEntry("effectful.reentry", "dedup").containsEntry("effectful.outcome", "ok")
                .containsEntry("effectful.intent_key", send.get(0).attr("effectful.intent_key"));
        // the body's own span (an HTTP client's, say) sits under the tool's span
        assertThat(t1.named("POST /mail ord-1")).get().extracting(Telemetry.SpanLine::parent)
                .isEqualTo(send.get(0).id());

        List<Telemetry.SpanLine> notify = t1.tools("notify_customer");
        assertThat(notify).hasSize(2);
        assertCommon(notify.get(0), parent, "notify_customer", "send");
        assertThat(notify.get(0).attrs()).containsEntry("effectful.reentry", "new")
                .containsEntry("effectful.outcome", "unknown").containsEntry("effectful.effect_applied", "unknown")
                .containsEntry("error.type", "java.lang.IllegalStateException");
        assertThat(notify.get(0).status()).isEqualTo("ERROR");
        assertThat(notify.get(1).attrs()).containsEntry("effectful.reentry", "held")
                .containsEntry("effectful.outcome", "unknown").containsEntry("error.type", "unknown");

        List<Telemetry.SpanLine> charge = t1.tools("charge");
        assertThat(charge).hasSize(1);
        assertCommon(charge.get(0), parent, "charge", "money");
        assertThat(charge.get(0).attrs()).containsEntry("effectful.reentry", "refused")
                .containsEntry("effectful.outcome", "retryable").containsEntry("effectful.effect_applied", "no")
                .containsEntry("effectful.deadline_left_s", "0").containsEntry("error.type", "retryable");

        assertThat(t1.metrics()).contains(
                "effectful.calls {effectful.outcome=ok, effectful.reentry=new, gen_ai.tool.name=send_email} 1",
                "effectful.calls {effectful.outcome=ok, effectful.reentry=dedup, gen_ai.tool.name=send_email} 1",
                "effectful.calls {effectful.outcome=unknown, effectful.reentry=held, gen_ai.tool.name=notify_customer} 1",
                "effectful.calls {effectful.outcome=retryable, effectful.reentry=refused, gen_ai.tool.name=charge} 1",
                "gen_ai.execute_tool.duration {effectful.outcome=ok, gen_ai.tool.name=send_email} count=2,unit=s",
                "effectful.unresolved {} 1");

        // restart on the same journal: the shipment's intent has no outcome, its probe finds the effect
        ForkedApp second = ForkedApp.jdk(Jdk.current()).sysprop("effectful.journal.dir", journal)
                .main(OtelApp.class, "second", marks.toString()).run(dir.resolve("logs2"), Duration.ofSeconds(90));
        assertThat(second.results()).containsEntry("probe", "shipped:ord-7");
        Telemetry t2 = Telemetry.parse(second.stdout());
        List<Telemetry.SpanLine> ship = t2.tools("ship_order");
        assertThat(ship).hasSize(1);
        assertCommon(ship.get(0), second.results().get("parent"), "ship_order", "send");
        assertThat(ship.get(0).attrs()).containsEntry("effectful.reentry", "probe").containsEntry("effectful.outcome", "ok")
                .containsEntry("effectful.effect_applied", "yes").containsEntry("effectful.attempt", "1")
                .containsEntry("effectful.task.id", "otel-crash");
        assertThat(ship.get(0).events()).containsExactly("effectful.probe effectful.attempt=1 effectful.probe.result=found");
        assertThat(t2.metrics()).contains(
                "effectful.calls {effectful.outcome=ok, effectful.reentry=probe, gen_ai.tool.name=ship_order} 1",
                "effectful.unresolved {} 1"); // the notification still waits for a person

        // docs/TRACE-EXAMPLE.md is this file, copied: the trace of a real run, not written by hand
        java.nio.file.Files.writeString(Path.of("target", "trace-crash-act.txt"), "run 1 (killed with kill -9 inside"
                + " ship_order's body: that call's span never ended, so it was never exported)\n\n" + t1.tree()
                + "\nrun 2 (restarted on the same journal; the same task calls ship_order again)\n\n" + t2.tree()
                + "\nmetrics after run 2\n\n" + String.join("\n", t2.metrics()) + "\n");
        for (Telemetry t : List.of(t1, t2)) {
            assertThat(t.factLines()).isNotEmpty().noneMatch(l -> l.contains(ObservedTools.SECRET)
                    || l.contains("S3CR3T"));
        }
    }

    private static void assertCommon(Telemetry.SpanLine span, String parent, String verb, String kind) {
        Map<String, String> a = span.attrs();
        assertThat(span.parent()).as("parent of " + span.name()).isEqualTo(parent);
        assertThat(span.kind()).isEqualTo("INTERNAL");
        assertThat(a).containsEntry("gen_ai.operation.name", "execute_tool").containsEntry("gen_ai.tool.name", verb)
                .containsEntry("effectful.kind", kind).containsKey("effectful.task.id");
        assertThat(a.get("effectful.intent_key")).matches("[0-9a-f]{32}");
    }
}
