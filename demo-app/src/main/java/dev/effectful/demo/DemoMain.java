package dev.effectful.demo;

import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The demo: an order-and-notify assistant meets a service that fails in the six ways that matter,
 * is killed in the middle of a charge, and is restarted. This process plays the world (the service
 * and its ledger) and the operator (kill -9, restart, the journal CLI); the assistant runs in
 * child JVMs, with the Effectful agent exactly when this JVM has it.
 *
 * <pre>
 * java -javaagent:agent/target/effectful-agent.jar -jar demo-app/target/effectful-demo.jar [--no-agent]
 *      [--journal DIR] [--summary-json FILE] [--task ID]
 * </pre>
 */
public final class DemoMain {

    private DemoMain() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args));
    }

    static int run(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        long started = System.currentTimeMillis();
        boolean noAgent = false;
        Path journal = null;
        Path summaryJson = null;
        String taskId = "ord-7741";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--no-agent" -> noAgent = true;
                case "--journal" -> journal = Path.of(args[++i]).toAbsolutePath();
                case "--summary-json" -> summaryJson = Path.of(args[++i]).toAbsolutePath();
                case "--task" -> taskId = args[++i];
                case "-h", "--help" -> {
                    out.println("usage: java [-javaagent:effectful-agent.jar] -jar effectful-demo.jar [--no-agent]"
                            + " [--journal DIR] [--summary-json FILE] [--task ID]");
                    return 0;
                }
                default -> {
                    System.err.println("effectful demo: unknown argument " + args[i] + " (try --help)");
                    return 2;
                }
            }
        }
        String agentJar = noAgent ? null : CrashAct.agentJarOfThisJvm();
        if (journal == null) {
            // a fresh journal each run: a second run must not find the first run's intents
            journal = Files.createTempDirectory("effectful-demo-journal-");
        }
        Path transcript = Files.createTempFile("effectful-demo-transcript-", ".jsonl");
        String model = AssistantMain.realModel() == null ? "a scripted model (offline)" : "a real model via OPENAI_*";

        out.println("== Effectful demo: an order-and-notify assistant on LangChain4j, " + model);
        Summary.wrap(out, "   ", agentJar != null
                ? "running WITH the Effectful agent (" + agentJar + "); journal " + journal
                : "running WITHOUT the Effectful agent: duplicates will happen"
                        + (noAgent ? " (--no-agent)" : " (start with -javaagent:agent/target/effectful-agent.jar)"));

        try (LedgerService service = new LedgerService()) {
            CrashAct acts = new CrashAct(agentJar, journal, service.baseUrl(), transcript);
            Summary.wrap(out, "-- ", "act 1: task " + taskId + "; the service answers 429 + Retry-After, creates a partial order,"
                    + " sends 200 with an error body, replies too slowly; the model re-sends one call");
            crashMidCharge(out, service, acts, taskId);
            service.releaseHangingCharge();

            Summary.wrap(out, "-- ", "act 2: the assistant restarts on task " + taskId + " and runs the whole task again;"
                    + " the cancel's reply is lost (502)");
            Process resume = acts.start(taskId, "resume");
            int resumeExit = CrashAct.finish(resume, 45);
            if (resumeExit != 0) {
                out.println("   (the resumed assistant exited with " + resumeExit + ")");
            }

            List<JournalView.Record> records = agentJar == null ? List.of() : JournalView.export(agentJar, journal, out);
            Summary summary = Summary.of(agentJar != null, Transcript.read(transcript), service.effects(), records);
            summary.print(out);
            if (agentJar != null) {
                printJournalCommands(out, agentJar, journal, taskId);
            }
            long elapsed = System.currentTimeMillis() - started;
            Summary.wrap(out, "   ", "finished in " + elapsed / 1000.0 + " s; children " + acts.pids + " all exited");
            if (summaryJson != null) {
                Files.writeString(summaryJson, summary.toJson(service.ledgerJson(), acts.pids, journal, elapsed));
            }
        } finally {
            Files.deleteIfExists(transcript);
        }
        return 0;
    }

    /** Act 1's end: once the card is charged the child is killed in the call, as a crash would find it. */
    private static void crashMidCharge(PrintStream out, LedgerService service, CrashAct acts, String taskId)
            throws Exception {
        Process first = acts.start(taskId, "first");
        boolean charged = waitForChargeOrExit(service, first);
        if (charged) {
            Thread.sleep(300); // let the child sit in the call, as a real crash would find it
            CrashAct.kill9(first);
            Summary.wrap(out, "-- ", "kill -9 " + first.pid() + ": the card was charged, the assistant died before it heard");
        } else {
            Summary.wrap(out, "-- ", "act 1 ended without reaching the charge (exit " + CrashAct.finish(first, 1) + ")");
        }
    }

    /** How to read the journal the run left, one command per line. */
    private static void printJournalCommands(PrintStream out, String agentJar, Path journal, String taskId) {
        // one command per line, each ready to paste (a shell would read "tasks|show" as a pipe)
        String cli = "java -jar " + agentJar + " journal --dir " + journal;
        out.println("   read the journal:");
        for (String command : List.of("tasks", "show " + taskId, "unresolved")) {
            Summary.wrap(out, "     ", cli + " " + command);
        }
    }

    /** True once the ledger shows the charge applied; false if the child ended before that. */
    private static boolean waitForChargeOrExit(LedgerService service, Process child) throws InterruptedException {
        long end = System.currentTimeMillis() + 45_000;
        while (System.currentTimeMillis() < end) {
            if (service.awaitCharge(200)) {
                return true;
            }
            if (!child.isAlive()) {
                return service.awaitCharge(0);
            }
        }
        return false;
    }

    /** The jar (or class folder) this class was loaded from: the children run from the same one. */
    static String demoJar() {
        try {
            return new File(DemoMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (Exception e) {
            return System.getProperty("java.class.path");
        }
    }
}
