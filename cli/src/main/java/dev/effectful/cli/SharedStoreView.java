package dev.effectful.cli;

import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.reentry.Phase;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.IntentStoreProviders;
import dev.effectful.core.store.StoreView;

import java.util.List;

/**
 * {@code journal --store postgres tasks|unresolved|show|resolve}: the fleet's shared intent table, read and
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
            return provider.openView(EffectfulConfig.load("store=" + provider.kind()).store().settings());
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
                String state = u.running() ? JournalIntents.IN_FLIGHT : u.phase();
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
                    g.writeStringField("state", JournalIntents.State.AWAITING_APPROVAL.word);
                    Json.str(g, "host", a.host());
                    g.writeStringField("requested", Times.iso(a.requested().toEpochMilli(), cli.zone));
                }));
            } else {
                t.row(a.intentKey(), a.task(), a.call(), a.kind(), JournalIntents.State.AWAITING_APPROVAL.word, a.host(),
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

    /**
     * The store's row of each intent {@code id} names (a key, a key prefix, or a task): what every host
     * decides from, and which host's journal holds the records themselves.
     */
    static int show(JournalCli cli, String id) throws CliException {
        try (StoreView view = open(cli.store)) {
            List<StoreView.IntentRow> rows;
            try {
                rows = view.show(id);
            } catch (UnsupportedOperationException e) {
                throw new CliException(JournalCli.USAGE, "--store " + cli.store + " cannot show intents");
            }
            if (rows.isEmpty()) {
                throw new CliException(JournalCli.USAGE, "no task or intent key '" + Table.clean(id) + "' in the shared store");
            }
            for (StoreView.IntentRow r : rows) {
                String state = r.running() ? JournalIntents.IN_FLIGHT : r.phase();
                if (cli.json) {
                    cli.out.println(Json.line(g -> {
                        g.writeStringField("intent_key", r.intentKey());
                        Json.str(g, "task", r.task());
                        Json.str(g, "call", r.call());
                        Json.str(g, "kind", r.kind());
                        g.writeStringField("state", state);
                        g.writeStringField("phase", r.phase());
                        g.writeNumberField("attempts", r.attempts());
                        Json.str(g, "effect_applied", r.effectApplied());
                        if (r.result() != null) {
                            Json.embedded(g, "result", r.result());
                        }
                        Json.str(g, "message", r.message());
                        Json.str(g, "host", r.host());
                        g.writeNumberField("pid", r.pid());
                        Json.str(g, "claim", r.claim());
                        if (r.leaseUntil() != null) {
                            g.writeStringField("lease_until", Times.iso(r.leaseUntil().toEpochMilli(), cli.zone));
                        }
                        Json.str(g, "approval_by", r.approvalBy());
                        g.writeStringField("updated", Times.iso(r.updated().toEpochMilli(), cli.zone));
                    }));
                    continue;
                }
                Table t = new Table("FIELD", "VALUE");
                t.row("intent key", r.intentKey());
                t.row("task", r.task());
                t.row("call", r.call());
                t.row("kind", r.kind());
                t.row("state", state);
                t.row("attempts", r.attempts());
                t.row("effect applied", r.effectApplied());
                t.row("result", r.result());
                t.row("message", r.message());
                t.row("host", r.host() == null ? null : r.host() + " (pid " + r.pid() + ")");
                t.row("lease", r.leaseUntil() == null ? "none" : (r.running() ? "live until " : "lapsed at ")
                        + Times.iso(r.leaseUntil().toEpochMilli(), cli.zone));
                if (r.approvalBy() != null) {
                    t.row("verdict by", r.approvalBy());
                }
                t.row("updated", Times.human(r.updated().toEpochMilli(), cli.zone));
                t.print(cli.out, cli.style);
                cli.out.println("records: in the journal of host " + (r.host() == null ? "(unknown)" : r.host())
                        + " (journal --dir THAT_HOSTS_JOURNAL show " + r.intentKey() + ")");
                cli.out.println();
            }
            return JournalCli.OK;
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
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
                        + " is not unresolved in the shared store" + standing(view, key) + "; nothing to resolve");
            };
        } catch (StoreUnavailableException e) {
            throw unavailable(e);
        }
    }

    /**
     * What the row says now, for a verdict that was refused: "; already decided: approved by Ann (note: ...)".
     * Of two verdicts at once the store records one; the other is told which.
     */
    static String standing(StoreView view, String key) {
        StoreView.IntentRow row;
        try {
            row = view.show(key).stream().filter(r -> key.equals(r.intentKey())).findFirst().orElse(null);
        } catch (RuntimeException cannotShow) {
            return ""; // the refusal stands on its own; only its detail is missing
        }
        if (row == null || row.phase() == null) {
            return "";
        }
        String phase = row.phase();
        String note = row.message() == null ? "" : " (note: " + Table.clean(row.message()) + ")";
        Phase known = Phase.fromWord(phase);
        if (known != null && known.verdict() != null) {
            return "; already decided: " + phase
                    + (row.approvalBy() == null ? "" : " by " + Table.clean(row.approvalBy())) + note;
        }
        if (known == Phase.RESOLVED_APPLIED || known == Phase.RESOLVED_NOT_APPLIED) {
            return "; already resolved by a person: effect applied "
                    + (known == Phase.RESOLVED_APPLIED ? "yes" : "no") + note;
        }
        return " (it is " + phase + ")";
    }

    private static CliException unavailable(StoreUnavailableException e) {
        return new CliException(JournalCli.USAGE, (e.misconfigured() ? "shared store refuses these settings: "
                : "shared store unavailable: ") + e.getMessage());
    }
}
