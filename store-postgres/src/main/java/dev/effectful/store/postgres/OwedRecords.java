package dev.effectful.store.postgres;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.log.AgentLog;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the store could not be told yet, in the order it happened here: records of the local journal, and
 * claims sent without an answer for calls that were then refused. {@link PostgresIntentStore} writes them
 * all before it decides anything again, so a decision always sees them.
 */
final class OwedRecords {

    /** Something the store still has to be told. */
    private sealed interface Owed {
    }

    /** A record of the local journal. */
    private record Write(JournalRecord record) implements Owed {
    }

    /** A claim sent without an answer, for a call that was then refused: see {@link IntentRows#WITHDRAW}. */
    private record Withdraw(String intentKey, String claim) implements Owed {
    }

    private final ConcurrentLinkedQueue<Owed> pending = new ConcurrentLinkedQueue<>();
    private final Object flushing = new Object();
    private final IntentRows rows;
    private final String name;

    OwedRecords(IntentRows rows, String name) {
        this.rows = rows;
        this.name = name;
    }

    /** A journal record the store did not take, or must not take before those owed already. */
    void record(JournalRecord r) {
        pending.add(new Write(r));
    }

    /** A claim that may still be committed although its call was refused: withdrawn before anything else. */
    void withdrawal(String intentKey, String claim) {
        pending.add(new Withdraw(intentKey, claim));
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    /** Writes everything owed, in order; what fails stays owed, from the record that failed on. */
    void flush(Connection c) throws SQLException {
        if (pending.isEmpty()) {
            return;
        }
        synchronized (flushing) {
            Owed o;
            while ((o = pending.peek()) != null) {
                if (o instanceof Write w) {
                    rows.writeRecord(c, w.record());
                } else if (o instanceof Withdraw wd) {
                    withdraw(c, wd);
                }
                pending.poll();
            }
        }
    }

    private void withdraw(Connection c, Withdraw w) throws SQLException {
        if (rows.withdraw(c, w.intentKey(), w.claim()) > 0) {
            AgentLog.info("effectful " + name + ": a claim committed after this host had given up on it ("
                    + w.claim() + ") is withdrawn; the intent was never attempted");
        }
    }
}
