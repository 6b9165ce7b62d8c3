package dev.effectful.cli;

import dev.effectful.cli.console.Views;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls per tool per minute over the last day, fed record by record as the console reads the journal:
 * what the overview's "last hour" and "last day" add up. A day of minutes per tool, whatever the
 * journal's size.
 */
final class ToolActivity {

    private static final int MINUTES = 24 * 60;
    private static final int CALLS = 0;
    private static final int OK = 1;
    private static final int RETRYABLE = 2;
    private static final int PERMANENT = 3;
    private static final int UNKNOWN = 4;
    private static final int REFUSED = 5;
    private static final int DEDUP = 6;
    private static final int COLUMNS = 7;

    /** One tool's counters: slot m holds minute {@code stamp[m]}. */
    private static final class Minutes {
        final long[] stamp = new long[MINUTES];
        final int[][] counts = new int[MINUTES][COLUMNS];

        void add(long minute, int column) {
            int m = (int) Math.floorMod(minute, (long) MINUTES);
            if (stamp[m] != minute) {
                stamp[m] = minute;
                java.util.Arrays.fill(counts[m], 0);
            }
            counts[m][column]++;
        }
    }

    private final Map<String, Minutes> tools = new HashMap<>();

    void accept(JournalRecord r) {
        if (r.call() == null || r.started() <= 0) {
            return;
        }
        int column = column(r);
        if (column < 0) {
            return;
        }
        Minutes m = tools.computeIfAbsent(r.call(), k -> new Minutes());
        long minute = r.started() / 60_000;
        m.add(minute, column);
        if (column == DEDUP || column == REFUSED) {
            m.add(minute, CALLS); // a repeat answered, or a call refused, is a call the model made too
        }
    }

    private static int column(JournalRecord r) {
        if (r.type() == RecordType.INTENT) {
            return CALLS;
        }
        if (r.type() == RecordType.DEDUP) {
            return DEDUP;
        }
        if (r.type() == RecordType.REFUSED) {
            return REFUSED;
        }
        if (r.type() == RecordType.OUTCOME && r.outcome() != null) {
            return switch (r.outcome()) {
                case OK -> OK;
                case RETRYABLE -> RETRYABLE;
                case PERMANENT -> PERMANENT;
                case UNKNOWN -> UNKNOWN;
            };
        }
        return -1;
    }

    /** Counts per tool over the {@code minutes} before {@code nowMillis}, busiest tool first. */
    List<Views.ToolCount> last(long nowMillis, int minutes) {
        long to = nowMillis / 60_000;
        long from = to - Math.min(minutes, MINUTES) + 1;
        List<Views.ToolCount> out = new ArrayList<>();
        tools.forEach((tool, m) -> {
            long[] sum = new long[COLUMNS];
            for (int i = 0; i < MINUTES; i++) {
                if (m.stamp[i] >= from && m.stamp[i] <= to) {
                    for (int c = 0; c < COLUMNS; c++) {
                        sum[c] += m.counts[i][c];
                    }
                }
            }
            if (sum[CALLS] > 0) {
                out.add(new Views.ToolCount(tool, sum[CALLS], sum[OK], sum[RETRYABLE], sum[PERMANENT], sum[UNKNOWN],
                        sum[REFUSED], sum[DEDUP]));
            }
        });
        out.sort((a, b) -> Long.compare(b.calls(), a.calls()));
        return out;
    }
}
