package dev.effectful.cli;

import dev.effectful.cli.console.Views;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The console's desk from a table of intents: approvals, those a person must settle, those the next call
 * settles, and the live writer's own calls, as {@code journal unresolved} sorts them. Each list shows its oldest
 * {@value #DESK_ROWS} at most, and only their records are read whole: a journal with hundreds of thousands of
 * intents waiting answers in about a second, not in the time it takes to read and render them all.
 */
final class DeskLists {

    /** Rows each list of the desk shows at most. */
    static final int DESK_ROWS = 1000;

    /** How the console words one intent for a page. */
    @FunctionalInterface
    interface Held {
        Views.Held of(JournalIntents.Intent intent, JournalRecord latestIntent, String state);
    }

    private DeskLists() {
    }

    /** The desk of {@code listing}, taking the records in {@code known} from there and reading the others shown. */
    static Views.Desk desk(JournalReader reader, JournalIntents listing, Map<Long, JournalRecord> known, String problem,
                           Held held) {
        List<JournalIntents.Intent> unresolved = listing.unresolved();
        // only a call with no outcome yet can be the live writer's own: just those need their record to tell
        Set<String> running = new HashSet<>();
        List<Views.Held> inFlight = new ArrayList<>();
        if (JournalLock.isHeld(reader.directory())) {
            List<JournalIntents.Intent> open = unresolved.stream()
                    .filter(i -> i.state() == JournalIntents.State.NO_OUTCOME).toList();
            for (UnresolvedCommand.Row row : UnresolvedCommand.rows(reader, open, known)) {
                if (row.inFlight()) {
                    running.add(row.intent().key());
                    inFlight.add(held.of(row.intent(), row.latestIntent(), row.state()));
                }
            }
        }
        List<JournalIntents.Intent> person = new ArrayList<>();
        List<JournalIntents.Intent> settling = new ArrayList<>();
        for (JournalIntents.Intent i : unresolved) {
            if (!running.contains(i.key())) {
                (i.settles() ? settling : person).add(i);
            }
        }
        List<JournalIntents.Intent> approvals = listing.awaitingApproval();
        List<JournalIntents.Intent> shown = new ArrayList<>(first(person));
        shown.addAll(first(settling));
        Map<String, UnresolvedCommand.Row> rows = new HashMap<>();
        for (UnresolvedCommand.Row row : UnresolvedCommand.rows(reader, shown, known)) {
            rows.put(row.intent().key(), row);
        }
        Map<Long, JournalRecord> requests = reader.readAll(first(approvals).stream()
                .mapToLong(JournalIntents.Intent::intentIndex).filter(at -> !known.containsKey(at)).toArray());
        List<Views.Held> waiting = new ArrayList<>();
        for (JournalIntents.Intent i : first(approvals)) {
            JournalRecord r = known.get(i.intentIndex());
            waiting.add(held.of(i, r != null ? r : requests.get(i.intentIndex()), JournalIntents.State.AWAITING_APPROVAL.word));
        }
        return new Views.Desk(waiting, heldRows(first(person), rows, held), heldRows(first(settling), rows, held), inFlight,
                problem, cut(approvals.size(), person.size(), settling.size()));
    }

    private static <T> List<T> first(List<T> all) {
        return all.size() <= DESK_ROWS ? all : all.subList(0, DESK_ROWS);
    }

    private static List<Views.Held> heldRows(List<JournalIntents.Intent> intents, Map<String, UnresolvedCommand.Row> rows,
                                             Held held) {
        List<Views.Held> out = new ArrayList<>(intents.size());
        for (JournalIntents.Intent i : intents) {
            UnresolvedCommand.Row row = rows.get(i.key());
            out.add(held.of(i, row == null ? null : row.latestIntent(), row == null ? i.state().word : row.state()));
        }
        return out;
    }

    /** What the desk says when it shows only the oldest of a list; null when it shows every list whole. */
    private static String cut(int approvals, int person, int settling) {
        if (approvals <= DESK_ROWS && person <= DESK_ROWS && settling <= DESK_ROWS) {
            return null;
        }
        return String.format("Each list shows its oldest %,d: %,d wait for approval, %,d for a person, %,d settle on"
                + " their next call. journal unresolved and journal approvals list them all.", DESK_ROWS, approvals,
                person, settling);
    }
}
