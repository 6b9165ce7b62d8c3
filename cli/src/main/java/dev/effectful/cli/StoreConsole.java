package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import dev.effectful.cli.console.Views;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.StoreView;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The console of a fleet: every host's held intents from the shared store, on one page. The store keeps
 * the state of each intent, not its records, which stay in the journal of the host that wrote them: a
 * page names that host and the command that shows them there. A verdict goes through
 * {@code journal --store postgres resolve}, so every host's next call of the intent honours it.
 */
final class StoreConsole extends RefreshedConsole implements AutoCloseable {

    private static final long POLL_MILLIS = 1_000;

    private final StoreView view;
    private volatile List<StoreView.Unresolved> rows = List.of();
    private volatile List<StoreView.TaskLine> tasks = List.of();
    private volatile List<StoreView.PendingApproval> approvals = List.of();
    private volatile String problem = "Reading the store; this page updates when it answers.";

    private StoreConsole(JournalCli cli, StoreView view) {
        super(cli, "effectful-console-store");
        this.view = view;
    }

    static StoreConsole open(JournalCli cli) throws CliException {
        StoreConsole c = new StoreConsole(cli, SharedStoreView.open(cli.store));
        c.start();
        return c;
    }

    @Override
    void refresh() {
        int seen = 0;
        while (!closed) {
            try {
                List<StoreView.Unresolved> u = view.unresolved();
                List<StoreView.TaskLine> t = view.tasks();
                List<StoreView.PendingApproval> a = approvalsOf(view);
                int h = (u.hashCode() * 31 + t.hashCode()) * 31 + a.hashCode();
                rows = u;
                tasks = t;
                approvals = a;
                if (problem != null || h != seen) {
                    problem = null;
                    seen = h;
                    version++;
                }
            } catch (StoreUnavailableException e) {
                String p = "the store does not answer: " + e.getMessage() + " (retrying every second)";
                if (!p.equals(problem)) {
                    problem = p;
                    version++;
                }
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static List<StoreView.PendingApproval> approvalsOf(StoreView view) {
        try {
            return view.approvals();
        } catch (UnsupportedOperationException noApprovals) {
            return List.of(); // a store that keeps none has none waiting
        }
    }

    @Override
    public String source() {
        return "store " + cli.store;
    }

    @Override
    public Views.Desk desk() {
        List<Views.Held> person = new ArrayList<>();
        List<Views.Held> running = new ArrayList<>();
        for (StoreView.Unresolved u : rows) {
            (u.running() ? running : person).add(held(u));
        }
        List<Views.Held> waiting = new ArrayList<>();
        for (StoreView.PendingApproval a : approvals) {
            waiting.add(held(a));
        }
        return new Views.Desk(waiting, person, List.of(), running, problem);
    }

    @Override
    public Optional<Views.IntentPage> intent(String key) {
        for (StoreView.PendingApproval a : approvals) {
            if (a.intentKey().equals(key)) {
                String base = "java -jar effectful-agent.jar journal --store " + cli.store;
                return Optional.of(new Views.IntentPage(held(a), List.of(), "that a person must approve it first",
                        Times.human(a.requested().toEpochMilli(), cli.zone), false, true,
                        base + " approve " + key + " --note '...'", base + " deny " + key + " --note '...'"));
            }
        }
        for (StoreView.Unresolved u : rows) {
            if (u.intentKey().equals(key)) {
                String base = "java -jar effectful-agent.jar journal --store " + cli.store + " resolve " + key;
                List<Views.Event> history = List.of(new Views.Event(Times.human(u.updated().toEpochMilli(), cli.zone),
                        u.phase(), key, JournalConsole.shortKey(key), u.call(), u.attempts(), u.phase(), null,
                        "its records are in the journal of host " + u.host() + ": journal --dir DIR show " + key
                                + " there", null, false));
                return Optional.of(new Views.IntentPage(held(u), history, "(in the journal of host " + u.host() + ")",
                        Times.human(u.updated().toEpochMilli(), cli.zone), !u.running(), false,
                        base + " --applied yes --note '...'", base + " --applied no --note '...'"));
            }
        }
        return Optional.empty();
    }

    @Override
    public Views.TaskPage task(String task) {
        List<Views.Event> events = new ArrayList<>();
        for (StoreView.Unresolved u : rows) {
            if (u.task().equals(task)) {
                events.add(new Views.Event(Times.human(u.updated().toEpochMilli(), cli.zone), u.phase(), u.intentKey(),
                        JournalConsole.shortKey(u.intentKey()), u.call(), u.attempts(), u.phase(), null,
                        "host " + u.host(), null, false));
            }
        }
        return new Views.TaskPage(task, null, events);
    }

    @Override
    public Views.Overview overview(String query) {
        List<Views.Held> matches = new ArrayList<>();
        long person = 0;
        long oldest = Long.MAX_VALUE;
        String q = query.toLowerCase(Locale.ROOT);
        for (StoreView.Unresolved u : rows) {
            if (!u.running()) {
                person++;
                oldest = Math.min(oldest, u.updated().toEpochMilli());
            }
            if (!q.isEmpty() && (u.intentKey().startsWith(q) || u.task().toLowerCase(Locale.ROOT).contains(q)
                    || u.call().toLowerCase(Locale.ROOT).contains(q) || (u.host() != null && u.host().contains(q)))) {
                matches.add(held(u));
            }
        }
        List<Views.ToolCount> none = List.of();
        return new Views.Overview(rows.size(), person, approvals.size(),
                oldest == Long.MAX_VALUE ? null : Times.duration(cli.now() - oldest), none, none, query, matches,
                !q.isEmpty());
    }

    @Override
    public Views.Done resolve(String key, boolean applied, String note, String resultJson, String person) {
        List<String> args = new ArrayList<>(List.of("--store", cli.store, "resolve", key, "--applied", applied ? "yes" : "no",
                "--note", note + " (" + person + ")"));
        if (resultJson != null) {
            args.add("--result");
            args.add(resultJson);
        }
        return JournalConsole.viaCli(cli, args, key);
    }

    @Override
    public Views.Done approve(String key, Verdict verdict, String note, String person) {
        return JournalConsole.viaCli(cli, List.of("--store", cli.store, ConsoleServer.action(verdict), key, "--note", note,
                "--by", person), key);
    }

    private Views.Held held(StoreView.PendingApproval a) {
        long at = a.requested().toEpochMilli();
        return new Views.Held(a.intentKey(), JournalConsole.shortKey(a.intentKey()), a.task(), null, a.call(), a.kind(),
                JournalIntents.State.AWAITING_APPROVAL.word, "-", 0, Times.human(at, cli.zone), Times.duration(cli.now() - at),
                "(in the journal of host " + a.host() + ")", false, false, a.host());
    }

    private Views.Held held(StoreView.Unresolved u) {
        long at = u.updated().toEpochMilli();
        return new Views.Held(u.intentKey(), JournalConsole.shortKey(u.intentKey()), u.task(), null, u.call(), u.kind(),
                u.running() ? JournalIntents.IN_FLIGHT : u.phase(), "-", u.attempts(), Times.human(at, cli.zone),
                Times.duration(cli.now() - at), "(in the journal of host " + u.host() + ")", false, u.running(),
                u.host() + " pid " + u.pid());
    }

    @Override
    public void close() {
        stopRefreshing(0);
        view.close();
    }
}
