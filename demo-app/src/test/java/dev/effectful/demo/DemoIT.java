package dev.effectful.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Runs the demo exactly as the README says, as a real process, and believes only the ledger. */
class DemoIT {

    private static final Path REPO = Path.of(System.getProperty("effectful.repo", "..")).toAbsolutePath().normalize();
    private static final Path AGENT = REPO.resolve("agent/target/effectful-agent.jar");
    private static final Path DEMO = REPO.resolve("demo-app/target/effectful-demo.jar");
    private static final Pattern LINE = Pattern.compile(
            "effects requested: (\\d+) = applied (\\d+) \\+ prevented (\\d+) \\+ refused (\\d+) \\+ held (\\d+)");

    record Run(int exit, String stdout, JsonNode summary, long millis) {
    }

    @Test
    void withTheAgentEveryInjectedFailureProducesAtMostOneEffect() throws Exception {
        assumeTrue(Files.isRegularFile(AGENT), "no " + AGENT + ": build the whole reactor first (mvn -q -B package -DskipTests)");
        Run run = run(true);

        assertEquals(0, run.exit(), run.stdout());
        assertTrue(run.millis() < 60_000, "took " + run.millis() + " ms");
        assertTrue(run.stdout().contains("running WITH the Effectful agent"), run.stdout());
        printedNumbersEqualTheLedger(run);
        JsonNode perStep = run.summary().path("ledger_per_step");
        for (Iterator<Map.Entry<String, JsonNode>> it = perStep.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> step = it.next();
            assertTrue(step.getValue().asInt() <= 1, step.getKey() + " applied " + step.getValue() + " times\n" + run.stdout());
        }
        assertEquals(1, perStep.path("charge_card").asInt(), "the killed charge landed exactly once\n" + run.stdout());
        assertEquals(0, run.summary().path("duplicates_applied").asInt(), run.stdout());
        assertTrue(run.stdout().contains("read the journal:") && run.stdout().contains(" unresolved"), run.stdout());
        assertFalse(run.stdout().contains("tasks|"), "the hint must paste as commands, not as shell pipes\n" + run.stdout());
        assertTrue(run.summary().path("duplicates_prevented").asInt() > 0, run.stdout());
        assertTrue(run.summary().path("requested_by_fate").path("prevented").asInt() > 0, run.stdout());
        noChildLeft(run);
    }

    @Test
    void withoutTheAgentTheSameScriptDuplicates() throws Exception {
        Run run = run(false);

        assertEquals(0, run.exit(), run.stdout());
        assertTrue(run.millis() < 60_000, "took " + run.millis() + " ms");
        assertTrue(run.stdout().contains("running WITHOUT the Effectful agent: duplicates will happen"), run.stdout());
        printedNumbersEqualTheLedger(run);
        assertTrue(run.summary().path("duplicates_applied").asInt() > 0, run.stdout());
        assertTrue(run.summary().path("ledger_per_step").path("charge_card").asInt() > 1,
                "without the agent the restarted assistant charges again\n" + run.stdout());
        // nothing stands between the model and the service: nothing is prevented, nothing held
        assertEquals(0, run.summary().path("requested_by_fate").path("prevented").asInt(), run.stdout());
        assertEquals(0, run.summary().path("requested_by_fate").path("held").asInt(), run.stdout());
        assertEquals(0, run.summary().path("duplicates_prevented").asInt(), run.stdout());
        assertTrue(run.stdout().contains("+ prevented 0 + "), run.stdout());
        noChildLeft(run);
    }

    /** The printed numbers: they add up, match the JSON, the ledger and the model's calls, and each is explained. */
    private static void printedNumbersEqualTheLedger(Run run) {
        Matcher m = LINE.matcher(run.stdout());
        assertTrue(m.find(), "no summary line in\n" + run.stdout());
        int requested = Integer.parseInt(m.group(1));
        int applied = Integer.parseInt(m.group(2));
        int prevented = Integer.parseInt(m.group(3));
        int refused = Integer.parseInt(m.group(4));
        int held = Integer.parseInt(m.group(5));
        assertEquals(requested, applied + prevented + refused + held, "requested = applied + prevented + refused + held");

        JsonNode s = run.summary();
        JsonNode effects = s.path("ledger").path("effects");
        assertEquals(effects.size(), applied, "applied calls vs the ledger's effects (one effect per call)");
        assertEquals(effects.size(), s.path("effects_applied").asInt());
        assertEquals(requested, s.path("effects_requested").asInt());
        JsonNode fates = s.path("requested_by_fate");
        assertEquals(List.of(applied, prevented, refused, held), List.of(fates.path("applied").asInt(),
                fates.path("prevented").asInt(), fates.path("refused").asInt(), fates.path("held").asInt()));
        int dup = 0;
        int total = 0;
        for (Iterator<JsonNode> it = s.path("ledger_per_step").elements(); it.hasNext(); ) {
            int n = it.next().asInt();
            dup += Math.max(0, n - 1);
            total += n;
        }
        assertEquals(total, effects.size(), "per-step counts vs the ledger's list");
        assertEquals(dup, s.path("duplicates_applied").asInt(), "duplicates applied vs the ledger");
        int effectful = 0;
        Map<String, Integer> perFate = new java.util.HashMap<>();
        for (JsonNode call : s.path("calls")) {
            if (!call.path("tool").asText().equals("search_products")) {
                effectful++;
                perFate.merge(call.path("fate").asText(), 1, Integer::sum);
            }
        }
        assertEquals(effectful, requested, "effects requested vs the model's calls");
        assertEquals(Map.of("applied", applied, "prevented", prevented, "refused", refused, "held", held).entrySet().stream()
                .filter(e -> e.getValue() > 0).collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)),
                perFate, "each call counted once, under its fate");

        String summary = run.stdout().substring(run.stdout().indexOf("per step:"));
        for (String line : summary.split("\n")) {
            assertTrue(line.length() <= 100, "over 100 columns: " + line);
            assertFalse(line.contains("…"), "a value cut short: " + line);
        }
        for (String word : List.of("requested", "applied", "prevented", "refused", "held")) {
            assertTrue(Pattern.compile("(?m)^    " + word + " +\\d+  \\S").matcher(summary).find(), word + " not explained\n" + summary);
        }
        if (summary.contains("retry+RA")) {
            assertTrue(summary.contains("terms: retry+RA") || summary.contains("       retry+RA"), "retry+RA not explained\n" + summary);
        }
    }

    private static void noChildLeft(Run run) {
        List<Long> pids = new ArrayList<>();
        run.summary().path("child_pids").forEach(p -> pids.add(p.asLong()));
        assertEquals(2, pids.size(), run.stdout());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "child " + pid + " still running");
        }
        assertFalse(ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive), "a process of the demo is still running");
    }

    private static Run run(boolean withAgent) throws Exception {
        assumeTrue(Files.isRegularFile(DEMO), "no " + DEMO + ": run mvn package first");
        Path summary = Files.createTempFile("demo-summary-", ".json");
        Path log = Files.createTempFile("demo-out-", ".txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java));
        if (withAgent) {
            cmd.add("-javaagent:" + REPO.relativize(AGENT));
        }
        cmd.addAll(List.of("-jar", REPO.relativize(DEMO).toString(), "--summary-json", summary.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(REPO.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        // offline: the scripted model, whatever the machine's environment says
        pb.environment().remove("OPENAI_API_KEY");
        pb.environment().remove("OPENAI_BASE_URL");
        long start = System.nanoTime();
        Process p = pb.start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("the demo did not finish in 90 s:\n" + Files.readString(log));
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        String out = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println(out);
        JsonNode json = new ObjectMapper().readTree(new File(summary.toString()));
        return new Run(p.exitValue(), out, json, millis);
    }
}
