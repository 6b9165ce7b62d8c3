package dev.effectful.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The journal as its CLI shows it to an operator ({@code journal export}), so the demo reads it the
 * way a person would after an incident instead of peeking at the agent's internals.
 */
final class JournalView {

    /** The few fields of a journal record the summary shows. */
    record Record(String type, String task, String call, String outcome, String effectApplied, String probe) {
    }

    private JournalView() {
    }

    static List<Record> export(String agentJar, Path dir, PrintStream out) {
        List<Record> records = new ArrayList<>();
        try {
            String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            Path err = Files.createTempFile("effectful-demo-cli-", ".err");
            Process p = new ProcessBuilder(java, "-Xshare:off", "-jar", agentJar, "journal", "--dir", dir.toString(), "export")
                    .redirectError(err.toFile()).start();
            byte[] bytes = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            String why = Files.readString(err).trim();
            Files.deleteIfExists(err);
            if (p.exitValue() != 0) {
                // an agent build without the journal CLI: the table still stands on the model and the ledger
                out.println("   (journal export exited with " + p.exitValue() + ": " + AssistantMain.shorten(why, 80)
                        + "; the journal column stays empty)");
            }
            ObjectMapper json = new ObjectMapper();
            for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("{")) {
                    continue;
                }
                JsonNode r = json.readTree(line);
                records.add(new Record(r.path("type").asText(""), r.path("task").asText(""), r.path("call").asText(""),
                        r.path("outcome").asText(""), r.path("effect_applied").asText(""), r.path("probe").asText("")));
            }
        } catch (Exception e) {
            out.println("   (could not read the journal through the CLI: " + e.getMessage() + ")");
        }
        return records;
    }
}
