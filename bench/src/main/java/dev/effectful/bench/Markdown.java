package dev.effectful.bench;

import java.util.List;
import java.util.Map;

/** results.md: the same numbers as results.json, as tables a person reads. */
final class Markdown {

    private Markdown() {
    }

    static String render(RunAll.Report r, List<Targets.Check> checks) {
        StringBuilder b = new StringBuilder();
        b.append("# Effectful benchmarks (").append(r.settings.quick() ? "quick" : "full").append(" run, ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores, JDK ")
                .append(System.getProperty("java.version")).append(String.format(", %.0f s)%n%n", r.elapsedSeconds))
                .append("Load average (1/5/15 min) at start ").append(r.loadAtStart).append(", at end ").append(r.loadAtEnd)
                .append(": on a busy machine p99s and anything involving the disk mean little.\n\n");
        perCall(b, r);
        startup(b, r);
        firstCall(b, r);
        recovery(b, r);
        if (r.fleet != null) {
            b.append(Fleet.markdown(r.fleet));
        }
        if (r.scale != null) {
            b.append(Scale.markdown(r.scale));
        }
        targets(b, checks);
        profile(b, r);
        return b.toString();
    }

    /** Per-call latencies against the Chronicle floor, what was skipped, the PostgreSQL forks' statements; nothing when not run. */
    private static void perCall(StringBuilder b, RunAll.Report r) {
        if (r.perCall == null) {
            return;
        }
        double floor = r.perCall.containsKey("chronicle_floor") ? r.perCall.get("chronicle_floor").get(1).medianNs()
                : Double.NaN;
        b.append("## Per call (JMH SampleTime, ns)\n\n");
        b.append("| comparator | median | p99 | 2 threads median | 2 threads p99 | median / chronicle_floor |\n");
        b.append("|---|---:|---:|---:|---:|---:|\n");
        r.perCall.forEach((name, t) -> {
            PerCall.Sample one = t.get(1);
            PerCall.Sample two = t.get(2);
            // a partial rerun (--comparators) may not have the floor: a dash, not NaN
            String ratio = Double.isNaN(floor) ? "–" : String.format("%.2f", one.medianNs() / floor);
            b.append(String.format("| %s | %.0f | %.0f | %.0f | %.0f | %s |%n", name, one.medianNs(), one.p99Ns(),
                    two.medianNs(), two.p99Ns(), ratio));
        });
        if (!r.perCallSkipped.isEmpty()) {
            b.append('\n');
        }
        r.perCallSkipped.forEach((name, why) -> b.append("- ").append(name).append(" not run: ").append(why).append('\n'));
        if (!r.postgresStatements.isEmpty()) {
            b.append("\nStatements the PostgreSQL forks ran (pg_stat_statements; intents = rows, one per new intent,"
                    + " warm-up included):\n\n```\n");
            r.postgresStatements.forEach((fork, lines) -> {
                b.append(fork).append('\n');
                lines.forEach(l -> b.append("  ").append(l).append('\n'));
            });
            b.append("```\n");
        }
        b.append("\n");
    }

    /** The section of start-up with and without the agent; nothing when it was not run. */
    private static void startup(StringBuilder b, RunAll.Report r) {
        if (r.startup == null) {
            return;
        }
        b.append("## Start-up: 5,000 classes + 20 tools, launch to end of main (ms; runs without and with the agent"
                + " alternate, pair by pair)\n\n| JDK | pairs | without agent (median) | with agent (median) |"
                + " added (median of paired differences) |\n|---|---:|---:|---:|---:|\n");
        for (Map.Entry<String, Map<String, Double>> e : r.startup.entrySet()) {
            Map<String, Double> m = e.getValue();
            b.append(String.format("| %s | %.0f | %.0f | %.0f | %.0f |%n", e.getKey(), m.get("pairs"), m.get("without"),
                    m.get("with"), m.get("added")));
        }
        b.append("\n");
    }

    /** The section of the first call after a fresh start and after a restart; nothing when it was not run. */
    private static void firstCall(StringBuilder b, RunAll.Report r) {
        if (r.firstCall == null) {
            return;
        }
        Map<String, Double> f = r.firstCall;
        b.append(String.format("## First call: main calls a tool at once, main's start to the call served (medians of"
                + " %.0f)%n%n- fresh JVM, no journal yet: %.0f ms%n- restart on the journal it left: %.0f ms%n"
                + "- main began %.0f ms after the JVM's start%n%n", f.get("runs"), f.get("empty_journal_ms"),
                f.get("restart_ms"), f.get("main_at_ms")));
        for (String jdk : new String[] {"jdk17", "jdk25"}) {
            if (f.containsKey(jdk + "_late_added_ms")) {
                b.append(String.format("- %s, tools built at start, first call %d ms after main (medians of %d): first %.2f ms,"
                        + " tenth %.2f ms, added %.2f ms%n", jdk.replace("jdk", "JDK "), FirstCall.LATE_DELAY_MS,
                        FirstCall.LATE_RUNS, f.get(jdk + "_late_first_ms"), f.get(jdk + "_late_tenth_ms"),
                        f.get(jdk + "_late_added_ms")));
            }
        }
        b.append('\n');
    }

    /** The section of recovery time and disk and heap per key; nothing when it was not run. */
    private static void recovery(StringBuilder b, RunAll.Report r) {
        if (r.recovery == null) {
            return;
        }
        Recovery.Result rec = r.recovery;
        b.append("## Recovery and disk (1,000,000 attempts = ").append(String.format("%,d", rec.records()))
                .append(" journal records)\n\n");
        b.append(String.format("- first call served: %.2f s after launch (%.0f ms after the JVM's recorded start),"
                + " restarting on the journal with the index snapshot an earlier run left%n",
                rec.secondsToFirstCall(), rec.msSinceJvmStart()));
        b.append(String.format("- first start on it (no snapshot yet, the whole journal replayed): %.2f s%n",
                rec.coldSecondsToFirstCall()));
        b.append(String.format("- index snapshot on disk: %.0f bytes per remembered key%n", rec.snapshotBytesPerKey()));
        b.append(String.format("- heap per remembered key: %.0f bytes%n", rec.heapBytesPerKey()));
        b.append(String.format("- disk per attempt: %.0f bytes used in the cycle file (%.0f bytes allocated)%n",
                rec.diskBytesPerAttempt(), rec.diskAllocatedBytesPerAttempt()));
        b.append(String.format("- generating the journal took %.1f s%n", rec.generateSeconds()));
        if (!rec.histogram().isEmpty()) {
            b.append("\nLive heap after the first call (jcmd GC.class_histogram, top):\n\n```\n");
            rec.histogram().forEach(l -> b.append(l).append('\n'));
            b.append("```\n");
        }
        b.append("\n");
    }

    /** The section of each target, measured and met or missed; nothing when it was not run. */
    private static void targets(StringBuilder b, List<Targets.Check> checks) {
        if (checks.isEmpty()) {
            return;
        }
        b.append("## Targets\n\n| target | measured | met |\n|---|---|---|\n");
        for (Targets.Check c : checks) {
            b.append("| ").append(c.target()).append(" | ").append(c.measured()).append(" | ")
                    .append(c.met() ? "met" : "**missed**").append(" |\n");
        }
        b.append("\nChecked by a test, not by this bench: no task budget is spent waiting for the"
                + " engine's start (agent FirstCallIT).\n\n");
    }

    /** The section of where the time goes, from JFR; nothing when it was not run. */
    private static void profile(StringBuilder b, RunAll.Report r) {
        if (r.profile == null) {
            return;
        }
        b.append("## Where the time goes (JFR, one thread, % of samples below the benchmark method)\n\n");
        r.profile.forEach((name, h) -> {
            b.append("### ").append(name).append("\n\n| inclusive | self | method |\n|---:|---:|---|\n");
            for (JfrHotspots.Line l : h.inclusive()) {
                b.append(String.format("| %.1f%% | %.1f%% | %s |%n", l.inclusivePct(), l.selfPct(), l.method()));
            }
            b.append("\nTop self:\n\n");
            for (JfrHotspots.Line l : h.self()) {
                b.append(String.format("- %.1f%% %s%n", l.selfPct(), l.method()));
            }
            b.append("\n");
        });
    }
}
