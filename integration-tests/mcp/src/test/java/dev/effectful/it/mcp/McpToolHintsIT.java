package dev.effectful.it.mcp;

import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code tools/list} of a woven MCP server carries each guarded tool's hints from its declared kind: the
 * real SDK client lists the tools of a server JVM with the real agent, over streamable HTTP on loopback,
 * on the SDK this module builds with (2.x) and on 1.x (the same applications, the SDK's three jars swapped
 * on the forked JVMs' class path for the ones the build copied into {@code it.mcp1.dir}).
 */
class McpToolHintsIT {

    private static final Duration START = Duration.ofSeconds(90);
    /** The SDK's own jars on a class path: {@code mcp}, {@code mcp-core}, {@code mcp-json-jackson3}. */
    private static final Pattern SDK_JAR = Pattern.compile("(mcp|mcp-core|mcp-json-jackson3)-\\d[^" + Pattern.quote(File.separator) + "]*\\.jar");

    @TempDir
    Path tmp;

    private final List<ForkedApp> servers = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (ForkedApp s : servers) {
            s.kill9();
        }
    }

    @ParameterizedTest(name = "SDK {0}")
    @ValueSource(strings = {"2.x", "1.x"})
    void everyGuardedToolIsListedWithTheHintsOfItsKind(String sdk) throws Exception {
        String classPath = classPath(sdk);
        ForkedApp server = server(classPath, null);

        Map<String, String> listed = list(classPath, server);

        assertThat(listed).containsOnlyKeys("find_order", "set_status", "open_ticket", "send_invoice", "charge_card",
                "delete_account", "echo");
        // READ: read-only, and nothing claimed of what it does not do
        assertThat(listed.get("find_order"))
                .isEqualTo("title=null readOnly=true destructive=null idempotent=null openWorld=null");
        assertThat(listed.get("set_status"))
                .isEqualTo("title=null readOnly=false destructive=false idempotent=true openWorld=null");
        assertThat(listed.get("open_ticket"))
                .isEqualTo("title=null readOnly=false destructive=false idempotent=false openWorld=null");
        // a probe: it asks a service outside whether its effect landed
        assertThat(listed.get("send_invoice"))
                .isEqualTo("title=null readOnly=false destructive=false idempotent=false openWorld=true");
        // the author's readOnlyHint: true contradicts MONEY: the kind wins; the title stays; a key header: outside
        assertThat(listed.get("charge_card"))
                .isEqualTo("title=Charge a card readOnly=false destructive=true idempotent=false openWorld=true");
        // the author's destructiveHint agrees and their openWorldHint is theirs to give: both kept
        assertThat(listed.get("delete_account"))
                .isEqualTo("title=null readOnly=false destructive=true idempotent=false openWorld=false");
        assertThat(listed.get("echo")).as("not a guarded tool: as its author wrote it")
                .isEqualTo("title=null readOnly=true destructive=null idempotent=null openWorld=null");

        List<String> warnings = server.stderr().lines().filter(l -> l.contains("WARN: MCP tool ")).toList();
        assertThat(warnings).as("one line, for the one contradiction").singleElement().satisfies(l -> assertThat(l)
                .contains("charge_card", "readOnlyHint: true", "MONEY", HintTools.class.getName() + ".chargeCard"));
    }

    @Test
    void withHintsOffEveryToolIsListedAsItsAuthorWroteIt() throws Exception {
        String classPath = classPath("2.x");
        ForkedApp server = server(classPath, "false");

        Map<String, String> listed = list(classPath, server);

        assertThat(listed.get("find_order")).isEqualTo("none");
        assertThat(listed.get("charge_card"))
                .isEqualTo("title=Charge a card readOnly=true destructive=null idempotent=null openWorld=null");
        assertThat(server.stderr()).doesNotContain("MCP tool ");
    }

    private ForkedApp server(String classPath, String hints) throws IOException {
        ForkedApp server = ForkedApp.jdk(Jdk.current()).classPath(classPath).main(McpServerApp.class)
                .sysprop("it.tools", "hints")
                .sysprop("effectful.journal.dir", tmp.resolve("journal"));
        if (hints != null) {
            server.sysprop("effectful.mcp.hints", hints);
        }
        server.start(tmp.resolve("logs"));
        servers.add(server);
        return server;
    }

    private Map<String, String> list(String classPath, ForkedApp server) throws Exception {
        String line = server.awaitLine(l -> l.startsWith("RESULT port "), START);
        String url = "http://127.0.0.1:" + line.substring("RESULT port ".length()).trim();
        return ForkedApp.jdk(Jdk.current()).classPath(classPath).withoutAgent()
                .main(McpClientApp.class, url, "list", "t-list", "60000")
                .run(tmp.resolve("logs"), START).results();
    }

    /** The forked JVMs' class path: the build's (SDK 2.x), or the same with the SDK's jars of 1.x instead. */
    static String classPath(String sdk) throws IOException {
        String built = System.getProperty("effectful.test.classpath");
        if (sdk.equals("2.x")) {
            return built;
        }
        Path dir = Path.of(System.getProperty("it.mcp1.dir"));
        List<String> oneX;
        try (Stream<Path> jars = Files.list(dir)) {
            oneX = jars.map(Path::toString).sorted().toList();
        }
        List<String> entries = new ArrayList<>(List.of(built.split(Pattern.quote(File.pathSeparator))));
        List<String> replaced = entries.stream().filter(e -> SDK_JAR.matcher(Path.of(e).getFileName().toString()).matches()
                && e.contains("modelcontextprotocol")).toList();
        assertThat(replaced).as("the SDK's jars on the build's class path").hasSize(3);
        assertThat(oneX).as("the 1.x jars copied by the build").hasSize(3).allMatch(j -> j.contains("-1."));
        entries.removeAll(replaced);
        entries.addAll(oneX);
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }
}
