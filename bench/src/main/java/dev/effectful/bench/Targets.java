package dev.effectful.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The targets, checked against the numbers: a goal to report on, not a test that fails the run. */
final class Targets {

    record Check(String target, String measured, boolean met) {
    }

    private Targets() {
    }

    static List<Check> evaluate(RunAll.Report r) {
        // the per-call, start-up, first-call, recovery and disk targets; a target whose figures this run did not measure is not listed
        List<Check> out = new ArrayList<>();
        perCall(r, out);
        startup(r, out);
        firstCall(r, out);
        recovery(r, out);
        fleet(r, out);
        return out;
    }

    /** The per-call targets: a new intent, a dedup hit, a READ, sync=intent, the PostgreSQL store. */
    private static void perCall(RunAll.Report r, List<Check> out) {
        if (has(r, "effectful", "chronicle_floor")) {
            double eff = median(r, "effectful");
            double floor = median(r, "chronicle_floor");
            out.add(new Check("new intent median at most 1.5 us", fmt(eff), eff <= 1_500));
            out.add(new Check("new intent median at most 4x chronicle_floor",
                    fmt(eff) + " vs " + fmt(floor) + " = " + ratio(eff, floor), eff <= 4 * floor));
        }
        if (has(r, "effectful")) {
            double p99 = r.perCall.get("effectful").get(1).p99Ns();
            out.add(new Check("new intent p99 at most 10 us", fmt(p99), p99 <= 10_000));
            Map<Integer, PerCall.Sample> eff = r.perCall.get("effectful");
            if (eff.containsKey(2)) {
                double one = eff.get(1).medianNs();
                double two = eff.get(2).medianNs();
                out.add(new Check("new intent, 2 threads: median at most 2x the 1-thread median",
                        fmt(two) + " vs " + fmt(one) + " = " + ratio(two, one), two <= 2 * one));
            }
        }
        if (has(r, "effectful_dedup")) {
            double dedup = median(r, "effectful_dedup");
            out.add(new Check("dedup hit median at most 0.5 us", fmt(dedup), dedup <= 500));
        }
        if (has(r, "effectful_read", "effectful")) {
            double read = median(r, "effectful_read");
            double eff = median(r, "effectful");
            out.add(new Check("READ call median at most the new intent's", fmt(read) + " vs " + fmt(eff), read <= eff));
        }
        if (has(r, "effectful_sync", "effectful", "chronicle_msync", "chronicle_floor")) {
            // what one msync adds to a raw append: chronicle_msync is one append and its msync, the floor two appends
            double sync = median(r, "effectful_sync");
            double eff = median(r, "effectful");
            double msyncAdds = Math.max(0, median(r, "chronicle_msync") - median(r, "chronicle_floor") / 2);
            out.add(new Check("sync=intent at most a new intent plus 1.3x what one msync adds to a raw append",
                    fmt(sync) + " vs " + fmt(eff) + " + 1.3 x " + fmt(msyncAdds) + " = " + fmt(eff + 1.3 * msyncAdds),
                    sync <= eff + 1.3 * msyncAdds));
        }
        if (r.perCall != null && r.perCall.containsKey("effectful_postgres")) {
            // the PostgreSQL store on loopback, with the server's default durability
            double pg = median(r, "effectful_postgres");
            String nofsync = r.perCall.containsKey("effectful_postgres_nofsync")
                    ? " (fsync off: " + fmt(median(r, "effectful_postgres_nofsync")) + ")" : "";
            out.add(new Check("effectful_postgres median under 1 ms on loopback", fmt(pg) + nofsync, pg < 1_000_000));
        }
    }

    /** What the agent adds to start-up, per JDK. */
    private static void startup(RunAll.Report r, List<Check> out) {
        if (r.startup == null) {
            return;
        }
        for (Map.Entry<String, Map<String, Double>> e : r.startup.entrySet()) {
            Map<String, Double> m = e.getValue();
            double added = m.get("added");
            out.add(new Check("start-up: agent adds at most 150 ms (" + e.getKey() + ", median of "
                    + String.format("%.0f", m.get("pairs")) + " paired differences)",
                    String.format("%.0f ms (medians %.0f -> %.0f)", added, m.get("without"), m.get("with")),
                    added <= 150));
        }
    }

    /** The first call after a fresh start and after a restart. */
    private static void firstCall(RunAll.Report r, List<Check> out) {
        if (r.firstCall == null) {
            return;
        }
        double fresh = r.firstCall.get("empty_journal_ms");
        double restart = r.firstCall.get("restart_ms");
        String runs = String.format("median of %.0f", r.firstCall.get("runs"));
        out.add(new Check("first guarded call served within 100 ms of main starting (fresh JVM, empty journal)",
                String.format("%.0f ms (%s)", fresh, runs), fresh <= 100));
        out.add(new Check("first guarded call served within 100 ms of main starting (restart on its journal)",
                String.format("%.0f ms (%s)", restart, runs), restart <= 100));
        for (String jdk : new String[] {"jdk17", "jdk25"}) {
            Double added = r.firstCall.get(jdk + "_late_added_ms");
            if (added != null) {
                out.add(new Check("a first call 1 s after main costs at most 2 ms more than the tenth (" + jdk.replace("jdk", "JDK ")
                        + ", median of " + FirstCall.LATE_RUNS + ")", String.format("+%.2f ms", added), added <= 2.0));
            }
        }
    }

    /** Recovery on a million attempts, heap and disk per key. */
    private static void recovery(RunAll.Report r, List<Check> out) {
        if (r.recovery == null) {
            return;
        }
        out.add(new Check("first call after a restart on 1,000,000 attempts within 1 s",
                String.format("%.2f s from launch, %.0f ms from JVM start (first start, no snapshot: %.2f s)",
                        r.recovery.secondsToFirstCall(), r.recovery.msSinceJvmStart(),
                        r.recovery.coldSecondsToFirstCall()), r.recovery.secondsToFirstCall() <= 1.0));
        out.add(new Check("first call on 1,000,000 attempts within 1 s with no index snapshot (the first start)",
                String.format("%.2f s from launch", r.recovery.coldSecondsToFirstCall()),
                r.recovery.coldSecondsToFirstCall() <= 1.0));
        out.add(new Check("heap per remembered key at most 100 B",
                String.format("%.0f B", r.recovery.heapBytesPerKey()), r.recovery.heapBytesPerKey() <= 100));
        out.add(new Check("disk per attempt at most 300 B",
                String.format("%.0f B used (%.0f B allocated)", r.recovery.diskBytesPerAttempt(),
                        r.recovery.diskAllocatedBytesPerAttempt()), r.recovery.diskBytesPerAttempt() <= 300));
    }

    /** The fleet's throughput, latency and exactly-once on the PostgreSQL store. */
    private static void fleet(RunAll.Report r, List<Check> out) {
        if (r.fleet == null) {
            return;
        }
        for (Fleet.Run f : r.fleet) {
            if (!f.store().equals("postgres")) {
                continue;
            }
            if (f.hosts() == 3 && f.threads() == 4) {
                out.add(new Check("fleet: at least 5,000 new intents/s with 3 hosts x 4 threads on one PostgreSQL"
                        + " (fsync on)", String.format("%,.0f/s (p50 %s, p99 %s)", f.intentsPerSecond(),
                        fmt(f.p50Ns()), fmt(f.p99Ns())), f.intentsPerSecond() >= 5_000));
            }
            if (f.hosts() == 1 && f.threads() == 1) {
                out.add(new Check("fleet: 1 host x 1 thread, median call at most 1 ms", fmt(f.p50Ns()) + " ("
                        + String.format("%,.0f/s", f.intentsPerSecond()) + ")", f.p50Ns() <= 1_000_000));
            }
            if (f.sharedIds() > 0) {
                out.add(new Check("fleet: every id of the shared walk charged exactly once (" + f.hosts() + " x "
                        + f.threads() + ")", f.sharedBodies() + " bodies for " + f.sharedIds() + " ids",
                        f.sharedBodies() == f.sharedIds()));
            }
        }
    }

    private static boolean has(RunAll.Report r, String... names) {
        return r.perCall != null && java.util.Arrays.stream(names).allMatch(n -> r.perCall.containsKey(n)
                && r.perCall.get(n).containsKey(1));
    }

    private static double median(RunAll.Report r, String name) {
        return r.perCall.get(name).get(1).medianNs();
    }

    private static String fmt(double ns) {
        if (ns >= 1_000_000) {
            return String.format("%.2f ms", ns / 1_000_000);
        }
        return ns >= 10_000 ? String.format("%.1f us", ns / 1000) : String.format("%.0f ns", ns);
    }

    private static String ratio(double a, double b) {
        return String.format("%.2fx", a / b);
    }
}
