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
        List<Check> out = new ArrayList<>();
        if (r.perCall != null && r.perCall.keySet().containsAll(List.of("plain", "resilience4j_retry", "jsonl_file",
                "h2_jdbc", "chronicle_floor", "chronicle_msync", "effectful", "effectful_sync", "effectful_dedup"))) {
            double eff = median(r, "effectful");
            double floor = median(r, "chronicle_floor");
            out.add(new Check("effectful median within 2x of chronicle_floor",
                    fmt(eff) + " vs " + fmt(floor) + " = " + ratio(eff, floor), eff <= 2 * floor));
            out.add(new Check("effectful median under 2 us", fmt(eff), eff < 2_000));
            double p99 = r.perCall.get("effectful").get(1).p99Ns();
            out.add(new Check("effectful p99 under 10 us", fmt(p99), p99 < 10_000));
            double h2 = median(r, "h2_jdbc");
            out.add(new Check("effectful at least 10x faster than h2_jdbc (median)",
                    fmt(h2) + " / " + fmt(eff) + " = " + ratio(h2, eff), h2 >= 10 * eff));
            double jsonl = median(r, "jsonl_file");
            out.add(new Check("effectful faster than jsonl_file (median)", fmt(eff) + " vs " + fmt(jsonl), eff < jsonl));
            double dedup = median(r, "effectful_dedup");
            out.add(new Check("effectful_dedup median under 1 us", fmt(dedup), dedup < 1_000));
            double sync = median(r, "effectful_sync");
            double msync = median(r, "chronicle_msync");
            out.add(new Check("effectful_sync within 1.3x of one msync (chronicle_msync)",
                    fmt(sync) + " vs " + fmt(msync) + " = " + ratio(sync, msync), sync <= 1.3 * msync));
        }
        if (r.perCall != null && r.perCall.containsKey("effectful_postgres")) {
            // issue 11: the PostgreSQL store on loopback, with the server's default durability
            double pg = median(r, "effectful_postgres");
            String nofsync = r.perCall.containsKey("effectful_postgres_nofsync")
                    ? " (fsync off: " + fmt(median(r, "effectful_postgres_nofsync")) + ")" : "";
            out.add(new Check("effectful_postgres median under 1 ms on loopback", fmt(pg) + nofsync, pg < 1_000_000));
        }
        if (r.startup != null) {
            for (Map.Entry<String, Map<String, Double>> e : r.startup.entrySet()) {
                double added = e.getValue().get("with") - e.getValue().get("without");
                out.add(new Check("startup: agent adds under 150 ms (" + e.getKey() + ")",
                        String.format("%.0f ms (%.0f -> %.0f)", added, e.getValue().get("without"), e.getValue().get("with")),
                        added < 150));
            }
        }
        if (r.recovery != null) {
            out.add(new Check("recovery: first call within 1 s of start (1M attempts)",
                    String.format("%.2f s from launch, %.0f ms from JVM start (first start, no snapshot: %.2f s)",
                            r.recovery.secondsToFirstCall(), r.recovery.msSinceJvmStart(),
                            r.recovery.coldSecondsToFirstCall()), r.recovery.secondsToFirstCall() <= 1.0));
            out.add(new Check("recovery: under 200 bytes of heap per remembered key",
                    String.format("%.0f B", r.recovery.heapBytesPerKey()), r.recovery.heapBytesPerKey() < 200));
            out.add(new Check("under 400 bytes of disk per attempt",
                    String.format("%.0f B used (%.0f B allocated)", r.recovery.diskBytesPerAttempt(),
                            r.recovery.diskAllocatedBytesPerAttempt()), r.recovery.diskBytesPerAttempt() < 400));
        }
        return out;
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
