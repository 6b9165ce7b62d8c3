package dev.effectful.cli;

import dev.effectful.core.journal.JournalRecord;

import java.time.ZoneId;

/** How one record reads as a table row (show, tail): when, what, which intent, how it ended. */
final class RecordRows {
    static final String[] HEADERS = {"TIME", "TYPE", "TASK", "CALL", "KEY", "ATT>", "OUTCOME", "EFFECT", "DURATION>", "DETAIL"};
    private static final int DETAIL_MAX = 100;

    private RecordRows() {
    }

    static Table table() {
        return new Table(HEADERS);
    }

    static void add(Table t, JournalRecord r, ZoneId zone) {
        String outcome = r.outcome() != null ? r.outcome().word() : r.probe() == null ? null : r.probe().word();
        t.row(Times.human(when(r), zone),
                r.type().word(),
                r.task(),
                r.call() == null ? null : r.call() + (r.kind() == null ? "" : " (" + r.kind().word() + ")"),
                r.intentKey(),
                r.attempt() == 0 ? null : r.attempt(),
                new Table.Cell(outcome == null ? "-" : outcome, Style.codeFor(outcome)),
                new Table.Cell(r.effectApplied() == null ? "-" : r.effectApplied().word(),
                        Style.codeFor(r.effectApplied() == null ? null : r.effectApplied().word())),
                r.durationMs() == null ? null : Times.duration(r.durationMs()),
                detail(r));
    }

    /**
     * When the record's event happened: an outcome's {@code started} is its attempt's start (so the
     * pair can be matched), but a person reading the rows wants the moment it ended.
     */
    static long when(JournalRecord r) {
        return r.type() == dev.effectful.core.journal.RecordType.OUTCOME && r.durationMs() != null
                ? r.started() + r.durationMs() : r.started();
    }

    /**
     * The one thing worth reading about the record: arguments of an intent, else message and result; what
     * the record's type says of itself first ({@code key_sent}: the header the key went out in).
     */
    static String detail(JournalRecord r) {
        StringBuilder sb = new StringBuilder();
        if (r.type().note() != null) {
            sb.append(r.type().note()).append(r.header() == null ? "?" : r.header());
        }
        if (r.verdict() != null) {
            sb.append(r.verdict()).append(r.by() == null ? "" : " by " + r.by())
                    .append(r.via() == null ? "" : " via " + r.via())
                    .append(r.note() == null ? "" : ": " + r.note()).append(' ');
        }
        if (r.args() != null) {
            sb.append("args=").append(r.args());
        }
        if (r.message() != null) {
            sb.append(sb.length() > 0 ? " " : "").append(r.message());
        }
        if (r.result() != null) {
            sb.append(sb.length() > 0 ? " " : "").append("result=").append(r.result());
        }
        if (r.retryAfterS() != null) {
            sb.append(sb.length() > 0 ? " " : "").append("retry_after=").append(r.retryAfterS()).append("s");
        }
        return sb.length() == 0 ? "-" : Json.compact(sb.toString(), DETAIL_MAX);
    }
}
