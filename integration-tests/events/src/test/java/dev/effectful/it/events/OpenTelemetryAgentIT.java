package dev.effectful.it.events;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.it.events.apps.AgentApp;
import dev.effectful.it.events.apps.ObservedTools;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenTelemetry Java agent (the real jar from Maven Central) and Effectful on one JVM, in either
 * order of their {@code -javaagent} flags: both start, and Effectful's {@code execute_tool} spans
 * sit under the agent's HTTP server span, with the agent's HTTP client span from the tool's body
 * under them. The agent exports with its {@code logging-otlp} exporter (OTLP JSON on stderr).
 */
class OpenTelemetryAgentIT {

    static final Path OTEL_AGENT = Path.of(System.getProperty("otel.javaagent.jar", "target/otel/opentelemetry-javaagent.jar"));
    static final int INTERNAL = 1;
    static final int SERVER = 2;
    static final int CLIENT = 3;

    @TempDir
    Path dir;

    /** How the two agents are attached. */
    enum Order {
        EFFECTFUL_FIRST,
        /**
         * The OpenTelemetry agent first: everything works; when that agent happened to load FutureTask
         * with fields of its own before Effectful's premain (it varies from run to run), one loud line
         * says the task context does not follow work through it and names the fix.
         */
        OTEL_FIRST
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void effectfulSpansNestUnderTheAgentsSpansInEitherOrder(Order order) throws Exception {
        String otel = "-javaagent:" + OTEL_AGENT.toAbsolutePath();
        String ours = "-javaagent:" + ForkedApp.AGENT_JAR;
        boolean otelFirst = order != Order.EFFECTFUL_FIRST;
        ForkedApp app = ForkedApp.jdk(Jdk.current()).withoutAgent()
                .jvmArg(otelFirst ? otel : ours).jvmArg(otelFirst ? ours : otel)
                .sysprop("effectful.journal.dir", dir.resolve("journal"))
                .sysprop("otel.service.name", "effectful-it").sysprop("otel.traces.exporter", "logging-otlp")
                .sysprop("otel.metrics.exporter", "none").sysprop("otel.logs.exporter", "none")
                .sysprop("otel.bsp.schedule.delay", "50")
                // the application has the API (as apps using spans do), not the SDK: the agent brings that
                .classPath(Classpaths.without("opentelemetry-sdk", "micrometer"))
                .main(AgentApp.class, Files.createDirectories(dir.resolve("marks")).toString())
                .run(dir.resolve("logs"), Duration.ofSeconds(120));
        assertThat(app.results()).containsEntry("answer", "sent:ord-1,sent:ord-1").containsEntry("effects", "1");
        String err = app.stderr();
        assertThat(err).contains("opentelemetry-javaagent - version:").doesNotContain(ObservedTools.SECRET);
        List<String> complaints = err.lines().filter(l -> l.contains("ERROR") || l.contains("Exception")).toList();
        if (order == Order.OTEL_FIRST) {
            // FutureTask was loaded with the OpenTelemetry agent's fields; retransforming it cannot keep them
            assertThat(complaints).hasSizeLessThanOrEqualTo(1).allSatisfy(l -> assertThat(l)
                    .startsWith("effectful ERROR: effectful could not rewrite the already loaded java.util.concurrent.")
                    .contains("put Effectful's -javaagent flag before the OpenTelemetry agent's"));
        } else {
            assertThat(complaints).isEmpty();
        }

        List<OtlpSpan> spans = OtlpSpan.parse(err);
        List<OtlpSpan> tools = spans.stream().filter(s -> s.name.equals("execute_tool send_email")).toList();
        assertThat(tools).hasSize(2).allMatch(s -> s.kind == INTERNAL);
        assertThat(tools).extracting(s -> s.attrs.get("effectful.reentry")).containsExactlyInAnyOrder("new", "dedup");
        OtlpSpan server = spans.stream().filter(s -> s.kind == SERVER && s.id.equals(tools.get(0).parent)).findFirst()
                .orElseThrow(() -> new AssertionError("no agent server span is the parent of " + tools + " in " + spans));
        assertThat(tools).allMatch(s -> s.parent.equals(server.id) && s.trace.equals(server.trace));
        OtlpSpan ran = tools.stream().filter(s -> s.attrs.get("effectful.reentry").equals("new")).findFirst().orElseThrow();
        assertThat(spans).as("the agent's client span from the tool's body")
                .anyMatch(s -> s.kind == CLIENT && s.parent.equals(ran.id));
        assertThat(ran.attrs).containsEntry("gen_ai.operation.name", "execute_tool")
                .containsEntry("effectful.task.id", "agent-task").containsEntry("effectful.outcome", "ok");
    }

    /** One span of the agent's OTLP JSON output, read with patterns (the test class path has no JSON library). */
    record OtlpSpan(String trace, String id, String parent, String name, int kind, Map<String, String> attrs) {

        private static final Pattern FIELD = Pattern.compile("\"(traceId|spanId|parentSpanId|name)\":\"([^\"]*)\"");
        private static final Pattern KIND = Pattern.compile("\"kind\":(\\d)");
        private static final Pattern ATTR = Pattern.compile(
                "\\{\"key\":\"([^\"]+)\",\"value\":\\{\"(?:stringValue|intValue|boolValue)\":\"?([^\"}]*)\"?}}");

        static List<OtlpSpan> parse(String text) {
            List<OtlpSpan> spans = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (!line.contains("\"scopeSpans\"")) {
                    continue;
                }
                String[] chunks = line.split("\\{\"traceId\":");
                for (int i = 1; i < chunks.length; i++) {
                    String c = "\"traceId\":" + chunks[i];
                    Map<String, String> f = new LinkedHashMap<>();
                    Matcher m = FIELD.matcher(c);
                    while (m.find()) {
                        f.putIfAbsent(m.group(1), m.group(2));
                    }
                    Matcher k = KIND.matcher(c);
                    Map<String, String> attrs = new LinkedHashMap<>();
                    Matcher a = ATTR.matcher(c);
                    while (a.find()) {
                        attrs.putIfAbsent(a.group(1), a.group(2));
                    }
                    spans.add(new OtlpSpan(f.get("traceId"), f.get("spanId"), f.getOrDefault("parentSpanId", ""),
                            f.get("name"), k.find() ? Integer.parseInt(k.group(1)) : -1, attrs));
                }
            }
            return spans;
        }
    }
}
