package dev.effectful.agent.cli;

import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.reentry.StoreUnavailableException;
import dev.effectful.runtime.store.IntentStoreProvider;
import dev.effectful.runtime.store.IntentStoreProviders;
import dev.effectful.runtime.store.StoreView;

import java.util.List;

/**
 * {@code journal --store postgres tasks|unresolved|resolve}: the fleet's shared intent table, read and
 * resolved through the same store the agents decide from. The connection comes from the same keys
 * as the agent's ({@code effectful.store.url}, {@code .user}, {@code .password} or
 * {@code .password.file}, as system properties or {@code EFFECTFUL_STORE_*} variables).
 * The other commands read this host's local journal, which stays each host's write-ahead log.
 */
final class SharedStoreView {

    private SharedStoreView() {
    }

    /** The provider of {@code --store KIND}, if a bundled module has one; else the local journal is read. */
    static boolean exists(String kind) {
        return IntentStoreProviders.find(kind).isPresent();
    }

    static StoreView open(String kind) throws CliException {
        IntentStoreProvider provider = IntentStoreProviders.find(kind)
                .orElseThrow(() -> new CliException(JournalCli.USAGE, "no store " + kind + " in this build"));
        try {
            return provider.openView(EffectfulConfig.load("store=" + provider.kind()).store());
        } catch (IllegalArgumentException e) {
            throw new CliException(JournalCli.USAGE, e.getMessage());
        }
    }

    static int tasks(JournalCli cli) throws CliException {
        try (StoreView view = open(cli.store)) {
            List<StoreView.TaskLine> rows = view.tasks();
            Table out = new Table("TASK", "INTENTS>", "ATTEMPTS>", "OK>", "UNRESOLVED>", "LAST ACTIVITY");
            for (StoreView.TaskLine t : rows) {
                if (cli.json) {
                    cli.out.println(Json.line(g -> {
                        g.writeStringField("task", t.task());
                        g.writeNumberField("intents", t.intents());
                        g.writeNumberField("attempts", t.attempts());
                        g.writeNumberField("ok", t.ok());
                        g.writeNumberField("unresolved", t.unresolved());
                        g.writeStringField("last_activity", Times.iso(t.lastActivity().toEpochMilli(), cli.zone));
                    }));
                } else {
                    out.row(t.task(), t.intents(), t.attempts(), t.ok(), t.unresolved(),
                            Times.human(t.lastActivity().toEpochMilli(), cli.zone));
                }
            }
            if (!cli.json) {
                out.print(cli.out, cli.style);
            }
            return JournalCli.OK;
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    static int unresolved(JournalCli cli) throws CliException {
        try (StoreView view = open(cli.store)) {
            List<StoreView.Unresolved> rows = view.unresolved();
            Table out = new Table("INTENT KEY", "TASK", "CALL", "KIND", "STATE", "ATTEMPTS>", "HOST", "PID>", "UPDATED");
            int waiting = 0;
            for (StoreView.Unresolved u : rows) {
                waiting += u.running() ? 0 : 1;
                String state = u.running() ? "in-flight" : u.phase();
                if (cli.json) {
                    cli.out.println(Json.line(g -> {
                        g.writeStringField("intent_key", u.intentKey());
                        g.writeStringField("task", u.task());
                        g.writeStringField("call", u.call());
                        g.writeStringField("kind", u.kind());
                        g.writeStringField("state", state);
                        g.writeNumberField("attempt", u.attempts());
                        Json.str(g, "host", u.host());
                        g.writeNumberField("pid", u.pid());
                        g.writeStringField("updated", Times.iso(u.updated().toEpochMilli(), cli.zone));
                    }));
                } else {
                    out.row(u.intentKey(), u.task(), u.call(), u.kind(), state, u.attempts(), u.host(), u.pid(),
                            Times.human(u.updated().toEpochMilli(), cli.zone));
                }
            }
            if (!cli.json) {
                out.print(cli.out, cli.style);
            }
            approvalsApart(cli, view);
            return waiting > 0 ? JournalCli.UNRESOLVED : JournalCli.OK;
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    /** The fleet's intents waiting for approval, under their own heading: nothing ran, so none is unresolved. */
    private static void approvalsApart(JournalCli cli, StoreView view) {
        List<StoreView.PendingApproval> pending;
        try {
            pending = view.approvals();
        } catch (UnsupportedOperationException noApprovals) {
            return;
        }
        if (pending.isEmpty()) {
            return;
        }
        Table t = new Table("INTENT KEY", "TASK", "CALL", "KIND", "STATE", "HOST", "REQUESTED");
        for (StoreView.PendingApproval a : pending) {
            if (cli.json) {
                cli.out.println(Json.line(g -> {
                    g.writeStringField("intent_key", a.intentKey());
                    Json.str(g, "task", a.task());
                    Json.str(g, "call", a.call());
                    Json.str(g, "kind", a.kind());
                    g.writeStringField("state", "awaiting-approval");
                    Json.str(g, "host", a.host());
                    g.writeStringField("requested", Times.iso(a.requested().toEpochMilli(), cli.zone));
                }));
            } else {
                t.row(a.intentKey(), a.task(), a.call(), a.kind(), "awaiting-approval", a.host(),
                        Times.human(a.requested().toEpochMilli(), cli.zone));
            }
        }
        if (!cli.json) {
            cli.out.println();
            cli.out.println("Awaiting approval (" + pending.size() + "): nothing ran; approve or deny each with journal"
                    + " --store postgres approve|deny KEY --note TEXT");
            t.print(cli.out, cli.style);
        }
    }

    static int resolve(JournalCli cli, String key, boolean applied, String note, String resultJson) throws CliException {
        try (StoreView view = open(cli.store)) {
            return switch (view.resolve(key, applied, note, resultJson)) {
                case RESOLVED -> {
                    cli.out.println("resolved " + key + " in the shared store: applied " + (applied ? "yes" : "no")
                            + (resultJson == null ? "" : "; every host's repeat returns " + resultJson));
                    yield JournalCli.OK;
                }
                case NO_SUCH_INTENT -> throw new CliException(JournalCli.USAGE, "no intent " + key + " in the shared store");
                case STILL_RUNNING -> throw new CliException(JournalCli.REFUSED, "intent " + key
                        + " is still claimed by a live host (its lease has not expired); resolve it once that call ends");
                case NOT_AWAITING_APPROVAL -> throw new CliException(JournalCli.REFUSED, "intent " + key
                        + " is not unresolved");
            };
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    private static CliException unavailable(StoreUnavailableException e) {
        return new CliException(JournalCli.USAGE, (e.misconfigured() ? "shared store refuses these settings: "
                : "shared store unavailable: ") + e.getMessage());
    }
}
