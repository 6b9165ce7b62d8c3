package dev.effectful.cli.console;

import dev.effectful.core.journal.Verdict;
import java.util.Optional;

/**
 * Where the console's pages come from and where a person's verdict goes: a local journal read beside
 * its live writer, or the fleet's store. Implementations act only through the paths the CLI uses
 * (a live resolve request, or the store), so the journal keeps its one writer.
 */
public interface ConsoleData extends AutoCloseable {

    /** Where the data comes from, for the page header: a journal directory or a store URL. */
    String source();

    /** Grows whenever something new was read; the live updates tell the page to reload when it moves. */
    long version();

    Views.Desk desk();

    Optional<Views.IntentPage> intent(String key);

    Views.TaskPage task(String task);

    Views.Overview overview(String query);

    /**
     * Records a person's verdict on an unresolved intent, as {@code journal resolve} would.
     *
     * @param resultJson the value the repeat returns (JSON), or null
     * @param person     who decided: the name typed in the console and the console's OS user
     */
    Views.Done resolve(String key, boolean applied, String note, String resultJson, String person);

    /**
     * Approves or denies an intent waiting for approval, as {@code journal approve|deny} would.
     *
     * @param verdict what the person decided: one a person gives ({@link Verdict#byPerson()})
     * @param person  who decided: the name typed in the console (the CLI adds its OS user)
     */
    Views.Done approve(String key, Verdict verdict, String note, String person);

    /** Stops reading; the console is going away. */
    @Override
    void close();
}
