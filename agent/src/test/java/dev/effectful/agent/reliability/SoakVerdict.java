package dev.effectful.agent.reliability;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Judges a soak from what outlives it: the application's samples (heap after a full GC, cycle files,
 * descriptors, mapped cycle files), the agent's retention log (index size, files deleted), the
 * ledger (every effect by reference) and the journal CLI's list of unresolved intents.
 *
 * <p>Samples inside the warm-up are ignored; "flat" compares the median of the first third of the
 * rest with the median of the last third.
 */
public record SoakVerdict(Map<String, Object> figures, List<Check> checks, List<Sample> samples, List<Long> indexSizes) {

    /** One line the application printed: {@code SAMPLE t= heap= files= fds= maps= calls=}. */
    public record Sample(long t, long heap, long files, long fds, long maps, long calls) {
    }

    /** One verdict line. */
    public record Check(String name, boolean passed, String detail) {
    }

    /** A ledger line: verb, reference, requests, applied effects. */
    public record LedgerEntry(String verb, String ref, int hits, int applied) {
    }

    /** Everything the soak observed. */
    public record Observed(long seconds, long retentionSeconds, long sessionMillis, List<Sample> samples,
                           List<Long> indexSizes, long filesDeleted, Map<String, Long> totals, Set<String> heldKeys,
                           Set<String> lostByJdkKeys, Map<String, Boolean> cliUnresolved, List<LedgerEntry> ledger,
                           List<String> odd) {
    }

    /**
     * New calls whose answer the JDK's own HttpClient lost (JDK-8338569) may be this many: each is a true
     * unknown the agent must report and keep unresolved. More than a few means something else is losing
     * answers.
     */
    private static final int JDK_LOST_ALLOWED = 3;

    /**
     * Samples are taken while both workers run, so even after a full GC they swing by several MiB
     * (13-25 MiB around a flat 20 MiB median in the 10-minute soak), and in a short run the index
     * still grows with the call rate while the JIT warms up. A leak of a hundred bytes a call is
     * still far above this in either run.
     */
    private static final long HEAP_SLACK = 8L << 20;

    public boolean passed() {
        return checks.stream().allMatch(Check::passed);
    }

    public static SoakVerdict judge(Observed o) {
        List<Check> checks = new ArrayList<>();
        Map<String, Object> f = new LinkedHashMap<>();
        long warmupMillis = Math.max(2 * o.retentionSeconds() * 1000, o.seconds() * 200);
        List<Sample> steady = o.samples().stream().filter(s -> s.t() >= warmupMillis).toList();
        long held = o.heldKeys().size();
        long calls = o.totals().getOrDefault("calls", 0L);
        long newIntents = o.totals().getOrDefault("new_effects", 0L) + o.totals().getOrDefault("new_reads", 0L);
        f.put("seconds", o.seconds());
        f.put("retention_s", o.retentionSeconds());
        f.put("roll_cycle", "secondly");
        f.put("calls", calls);
        f.put("calls_per_s", o.seconds() == 0 ? 0 : calls / o.seconds());
        f.putAll(o.totals());
        f.put("samples", o.samples().size());
        f.put("steady_samples", steady.size());

        // heap
        long heapFirst = median(third(steady, true).stream().map(Sample::heap).toList());
        long heapLast = median(third(steady, false).stream().map(Sample::heap).toList());
        f.put("heap_first_third_median", heapFirst);
        f.put("heap_last_third_median", heapLast);
        f.put("heap_max", steady.stream().mapToLong(Sample::heap).max().orElse(0));
        checks.add(new Check("heap flat", steady.size() >= 3 && (heapLast <= heapFirst * 1.2 || heapLast - heapFirst <= HEAP_SLACK),
                mib(heapFirst) + " -> " + mib(heapLast) + " (median after GC, first vs last third after warm-up)"));

        // cycle files: the window, one sweep period, a session's repeats, plus one per held intent at most
        long fileBound = 2 * o.retentionSeconds() + o.sessionMillis() / 1000 + 5 + held;
        long filesMax = steady.stream().mapToLong(Sample::files).max().orElse(0);
        long filesLast = o.samples().isEmpty() ? 0 : o.samples().get(o.samples().size() - 1).files();
        f.put("cycle_files_max", filesMax);
        f.put("cycle_files_end", filesLast);
        f.put("cycle_files_bound", fileBound);
        f.put("cycle_files_deleted", o.filesDeleted());
        checks.add(new Check("cycle files bounded", filesMax <= fileBound && o.filesDeleted() > 0,
                "max " + filesMax + " <= " + fileBound + ", " + o.filesDeleted() + " deleted by retention"));
        long mapsMax = steady.stream().mapToLong(Sample::maps).max().orElse(0);
        f.put("mapped_cycle_files_max", mapsMax);
        checks.add(new Check("mapped cycle files bounded", mapsMax <= fileBound, "max " + mapsMax + " <= " + fileBound));
        long fdFirst = median(third(steady, true).stream().map(Sample::fds).toList());
        long fdLast = median(third(steady, false).stream().map(Sample::fds).toList());
        f.put("fds_first_third_median", fdFirst);
        f.put("fds_last_third_median", fdLast);
        checks.add(new Check("descriptors flat", fdLast <= fdFirst + 20, fdFirst + " -> " + fdLast));

        // the intent index: a retention window's worth plus the held intents, not the whole history
        List<Long> idx = o.indexSizes().subList(o.indexSizes().size() / 5, o.indexSizes().size());
        long idxFirst = median(third(idx, true));
        long idxLast = median(third(idx, false));
        long idxMax = idx.stream().mapToLong(Long::longValue).max().orElse(0);
        f.put("index_first_third_median", idxFirst);
        f.put("index_last_third_median", idxLast);
        f.put("index_max", idxMax);
        f.put("intents_total", newIntents);
        // the calls of one retention window, one sweep period and one session at the fastest rate seen
        double maxRate = 0;
        for (int i = 1; i < o.samples().size(); i++) {
            SoakVerdict.Sample a = o.samples().get(i - 1);
            SoakVerdict.Sample b = o.samples().get(i);
            if (b.t() > a.t()) {
                maxRate = Math.max(maxRate, (b.calls() - a.calls()) * 1000.0 / (b.t() - a.t()));
            }
        }
        long idxBound = (long) (maxRate * (2 * o.retentionSeconds() + o.sessionMillis() / 1000.0 + 1)) + held;
        f.put("index_bound", idxBound);
        checks.add(new Check("index bounded", idx.size() >= 3 && idxMax <= idxBound && idxMax <= newIntents / 2,
                idxFirst + " -> " + idxLast + " intents remembered, max " + idxMax + " <= " + idxBound
                        + " (a window's calls at the fastest rate) of " + newIntents + " made"));

        // held intents: each still listed by the CLI with its intent record readable, and nothing else unresolved
        long readable = o.heldKeys().stream().filter(k -> Boolean.TRUE.equals(o.cliUnresolved().get(k))).count();
        f.put("held", held);
        f.put("cli_unresolved", o.cliUnresolved().size());
        checks.add(new Check("held intents kept", held > 0 && readable == held,
                readable + " of " + held + " held intents listed by `journal unresolved` with their intent record"));
        // anything else listed is an intent the CLI (and a restarted agent) would wrongly hold for a person
        long phantoms = o.cliUnresolved().keySet().stream()
                .filter(k -> !o.heldKeys().contains(k) && !o.lostByJdkKeys().contains(k)).count();
        f.put("phantom_unresolved", phantoms);
        checks.add(new Check("no phantom unresolved", phantoms == 0,
                phantoms + " intents listed unresolved that were settled while the application ran"));

        // answers the JDK's client lost: unknown to the caller, so unresolved in the journal until someone settles them
        long lostListed = o.lostByJdkKeys().stream().filter(k -> Boolean.TRUE.equals(o.cliUnresolved().get(k))).count();
        f.put("lost_by_jdk", o.lostByJdkKeys().size());
        checks.add(new Check("answers the JDK lost kept", o.lostByJdkKeys().size() <= JDK_LOST_ALLOWED
                && lostListed == o.lostByJdkKeys().size(), lostListed + " of " + o.lostByJdkKeys().size()
                + " answers lost by the JDK HttpClient (JDK-8338569) listed unresolved; at most " + JDK_LOST_ALLOWED + " allowed"));

        // the ledger: nothing applied twice, every new effect there once
        long dups = o.ledger().stream().filter(e -> e.applied() > 1).count();
        long heldHits = o.ledger().stream().filter(e -> e.ref().startsWith(SoakTools.LOST)).mapToLong(LedgerEntry::hits).sum();
        long effects = o.ledger().size();
        f.put("effects", effects);
        f.put("requests", o.ledger().stream().mapToLong(LedgerEntry::hits).sum());
        f.put("duplicates", dups);
        checks.add(new Check("no duplicates", dups == 0 && heldHits == held,
                dups + " references applied twice; held sends reached the ledger " + heldHits + " times for " + held));
        long expected = o.totals().getOrDefault("new_effects", -1L);
        checks.add(new Check("every effect once", effects == expected, effects + " ledger effects for " + expected + " new effectful calls"));
        checks.add(new Check("answers by the rules", o.odd().isEmpty() && calls > 0,
                o.odd().isEmpty() ? "every repeat ok, every held repeat held" : o.odd().size() + " odd: " + o.odd().get(0)));
        return new SoakVerdict(f, checks, o.samples(), o.indexSizes());
    }

    private static <T> List<T> third(List<T> xs, boolean first) {
        int n = Math.max(1, xs.size() / 3);
        if (xs.isEmpty()) {
            return xs;
        }
        return first ? xs.subList(0, Math.min(n, xs.size())) : xs.subList(Math.max(0, xs.size() - n), xs.size());
    }

    private static long median(List<Long> xs) {
        if (xs.isEmpty()) {
            return 0;
        }
        List<Long> s = xs.stream().sorted().toList();
        return s.get(s.size() / 2);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    public String table() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%8s %10s %6s %5s %5s %10s%n", "t(s)", "heap(MiB)", "files", "fds", "maps", "calls"));
        for (Sample x : samples) {
            s.append(String.format(Locale.ROOT, "%8.0f %10.1f %6d %5d %5d %10d%n", x.t() / 1000.0, x.heap() / 1048576.0,
                    x.files(), x.fds(), x.maps(), x.calls()));
        }
        s.append('\n');
        for (Check c : checks) {
            s.append(String.format(Locale.ROOT, "%-4s %-26s %s%n", c.passed() ? "ok" : "FAIL", c.name(), c.detail()));
        }
        s.append("soak => ").append(passed() ? "PASS" : "FAIL").append('\n');
        return s.toString();
    }

    public String toJson() {
        StringBuilder s = new StringBuilder("{\n");
        for (Map.Entry<String, Object> e : figures.entrySet()) {
            Object v = e.getValue();
            s.append("  \"").append(e.getKey()).append("\": ").append(v instanceof String ? "\"" + v + "\"" : v).append(",\n");
        }
        s.append("  \"passed\": ").append(passed()).append(",\n  \"checks\": [\n");
        s.append(String.join(",\n", checks.stream().map(c -> String.format(Locale.ROOT,
                "    {\"check\": \"%s\", \"passed\": %s, \"detail\": \"%s\"}", c.name(), c.passed(),
                c.detail().replace("\\", "\\\\").replace("\"", "'"))).toList()));
        s.append("\n  ],\n  \"samples\": [\n");
        s.append(String.join(",\n", samples.stream().map(x -> String.format(Locale.ROOT,
                "    {\"t_ms\": %d, \"heap\": %d, \"files\": %d, \"fds\": %d, \"maps\": %d, \"calls\": %d}",
                x.t(), x.heap(), x.files(), x.fds(), x.maps(), x.calls())).toList()));
        s.append("\n  ],\n  \"index_sizes\": ").append(indexSizes).append("\n}\n");
        return s.toString();
    }
}
