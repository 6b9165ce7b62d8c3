package dev.effectful.cli;

import dev.effectful.core.journal.RootCause;
import dev.effectful.core.store.IntentStoreProviders;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code java -jar effectful-agent.jar journal [--dir DIR] [--json] COMMAND}: reading the journal
 * after a crash, beside a live writer, or on a damaged copy. Every failure ends as one line on stderr
 * and an exit code, never a stack trace.
 */
@Command(name = "journal",
        mixinStandardHelpOptions = true,
        versionProvider = JournalCli.Version.class,
        description = "Read an Effectful journal: what happened, what is unresolved, and record a person's verdict.",
        subcommands = {TasksCommand.class, ShowCommand.class, UnresolvedCommand.class, TailCommand.class,
                ExportCommand.class, ResolveCommand.class, VerifyCommand.class, SecretCommand.class,
                ApprovalsCommand.class, ApprovalVerdict.Approve.class, ApprovalVerdict.Deny.class, ConsoleCommand.class},
        footerHeading = "%nExit codes:%n",
        footer = {
                "  0  done; nothing needs a person",
                "  1  verify found something a person must look at; secret found secret.key",
                "     is not the journal's; or part of the journal could not be read",
                "  2  usage error, or DIR is missing or not a journal",
                "  3  unresolved intents exist (unresolved); approvals are waiting (approvals)",
                "  4  resolve refused: the intent is not unresolved, or the running writer",
                "     refused the verdict or did not record it within --wait seconds",
                "",
                "Journal directory: --dir, else -Deffectful.journal.dir, else",
                "EFFECTFUL_JOURNAL_DIR, else ./effectful-journal.",
                "--dir, --json and --store may come before or after the command.",
                "The CLI takes the writer lock only for resolve, and only when no agent holds",
                "it (a running agent records the verdict itself), so it is safe beside one.",
                "Colour only on a terminal and never when NO_COLOR is set.",
                "--json: one JSON document per line."})
public final class JournalCli implements Callable<Integer> {

    static final int OK = 0;
    static final int LOOK = 1;
    static final int USAGE = 2;
    static final int UNRESOLVED = 3;
    static final int REFUSED = 4;

    // INHERIT: also accepted after the command (journal tasks --json), set here either way
    @Option(names = "--dir", paramLabel = "DIR", scope = CommandLine.ScopeType.INHERIT,
            description = "journal directory (see below for the default)")
    Path dir;

    @Option(names = "--json", scope = CommandLine.ScopeType.INHERIT, description = "one JSON document per line, for scripts")
    boolean json;

    @Option(names = "--store", paramLabel = "local|postgres", defaultValue = "local", scope = CommandLine.ScopeType.INHERIT,
            description = "postgres: tasks, unresolved, show and resolve go to the fleet's shared store"
                    + " (effectful.store.url/user/password as -D properties or EFFECTFUL_STORE_* variables)")
    String store;

    boolean sharedStore() {
        return !"local".equalsIgnoreCase(store) && SharedStoreView.exists(store);
    }

    final PrintStream out;
    final PrintStream err;
    final Map<String, String> env;
    final Style style;
    final Clock clock;
    final ZoneId zone;
    final long stallMillis;

    JournalCli(PrintStream out, PrintStream err, Map<String, String> env, boolean terminal, Clock clock, long stallMillis) {
        this.out = out;
        this.err = err;
        this.env = env;
        this.style = Style.detect(terminal, env);
        this.clock = clock;
        this.zone = clock.getZone();
        this.stallMillis = stallMillis;
    }

    /** Entry point for {@code Launcher}: real streams, real environment. */
    public static int run(String[] args) {
        // buffered: exporting a million lines through an autoflushing stream is needlessly slow
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        try {
            return run(args, out, err, System.getenv(), System.console() != null, Clock.systemDefaultZone(),
                    Long.getLong("effectful.cli.stallMillis", JournalReader.DEFAULT_STALL_MILLIS));
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** For tests: captured streams, no terminal. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System.getenv(), false, Clock.systemDefaultZone(), JournalReader.DEFAULT_STALL_MILLIS);
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env, boolean terminal,
                   Clock clock, long stallMillis) {
        JournalCli cli = new JournalCli(out, err, env, terminal, clock, stallMillis);
        CommandLine cl = new CommandLine(cli);
        cl.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(cli.style.enabled()
                ? CommandLine.Help.Ansi.ON : CommandLine.Help.Ansi.OFF));
        // picocli lists only the first line of each command's description; ours are whole sentences
        cl.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_COMMAND_LIST, JournalCli::commandList);
        cl.setExecutionStrategy(parsed -> {
            String problem = cli.settingsProblem();
            if (problem != null) {
                CommandLine.ParseResult last = parsed;
                while (last.hasSubcommand()) {
                    last = last.subcommand();
                }
                // a usage error (exit 2) before any command runs: never a read of some other journal instead
                throw new CommandLine.ParameterException(last.commandSpec().commandLine(), problem);
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        cl.setParameterExceptionHandler((e, a) -> {
            String hint = e instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()
                    ? "; did you mean: " + String.join(" or ", u.getSuggestions()) + "?"
                    : "";
            err.println("effectful journal: " + oneLine(e.getMessage()) + hint + " (try: "
                    + e.getCommandLine().getCommandSpec().qualifiedName() + " --help)");
            return USAGE;
        });
        cl.setExecutionExceptionHandler((e, c, p) -> {
            out.flush();
            if (e instanceof CliException ce) {
                err.println("effectful journal: " + dev.effectful.core.log.PrintableText.escape(ce.getMessage()));
                return ce.exitCode();
            }
            if (causedBy(e, OutOfMemoryError.class)) {
                err.println("effectful journal: out of memory reading the journal; give the CLI more heap,"
                        + " e.g. java -Xmx512m -jar effectful-agent.jar journal ...");
                return LOOK;
            }
            err.println("effectful journal: failed: " + RootCause.firstLine(e));
            return LOOK;
        });
        try {
            int code = cl.execute(args);
            out.flush();
            return code;
        } catch (RuntimeException | Error e) {
            // last resort: picocli itself failed; still one line
            out.flush();
            err.println("effectful journal: failed: " + RootCause.firstLine(e));
            return LOOK;
        }
    }

    /** Every command with its whole description, wrapped under the command's column. */
    static String commandList(CommandLine.Help help) {
        if (help.subcommands().isEmpty()) {
            return "";
        }
        int width = help.commandSpec().usageMessage().width();
        int nameWidth = 2 + help.subcommands().keySet().stream().mapToInt(String::length).max().orElse(8) + 2;
        CommandLine.Help.TextTable table = CommandLine.Help.TextTable.forColumns(help.colorScheme(),
                new CommandLine.Help.Column(nameWidth, 2, CommandLine.Help.Column.Overflow.SPAN),
                new CommandLine.Help.Column(width - nameWidth, 0, CommandLine.Help.Column.Overflow.WRAP));
        for (Map.Entry<String, CommandLine.Help> e : help.subcommands().entrySet()) {
            String description = String.join(" ", e.getValue().commandSpec().usageMessage().description());
            table.addRowValues(help.colorScheme().commandText(e.getKey()), help.colorScheme().text(description));
        }
        return table.toString();
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("").trim();
    }

    @Override
    public Integer call() {
        err.println("effectful journal: a command is required: tasks, show, unresolved, tail, export, resolve, verify,"
                + " secret, approvals, approve, deny"
                + " (try: journal --help)");
        return USAGE;
    }

    /**
     * What makes the settings unusable before any command runs, or null: a {@code --store} kind this build
     * has no store for (it would otherwise read the local journal and answer for the wrong one), or a journal
     * directory setting that is present but empty (an unset {@code $VAR}), which the agent refuses too.
     */
    String settingsProblem() {
        if (store != null && !"local".equalsIgnoreCase(store) && !SharedStoreView.exists(store)) {
            String shared = IntentStoreProviders.all().stream().map(p -> p.kind()).collect(Collectors.joining(" or "));
            return "unknown store '" + Table.clean(store) + "' for --store: use local (this host's journal)"
                    + (shared.isEmpty() ? "; this build has no shared store" : " or " + shared + " (a fleet's shared store)");
        }
        if (dir == null) {
            String p = System.getProperty("effectful.journal.dir");
            String e = env.get("EFFECTFUL_JOURNAL_DIR");
            if (p != null ? p.isBlank() : e != null && e.isBlank()) {
                return (p != null ? "-Deffectful.journal.dir" : "EFFECTFUL_JOURNAL_DIR") + " is set but empty; give"
                        + " --dir DIR or set it to the journal directory";
            }
        }
        return null;
    }

    /** The journal directory as the contract orders the sources. */
    Path journalDir() {
        if (dir != null) {
            return dir;
        }
        String p = System.getProperty("effectful.journal.dir");
        if (p != null && !p.isBlank()) {
            return Path.of(p);
        }
        String e = env.get("EFFECTFUL_JOURNAL_DIR");
        if (e != null && !e.isBlank()) {
            return Path.of(e);
        }
        return Path.of("effectful-journal");
    }

    JournalReader openReader() throws CliException {
        return JournalReader.open(journalDir(), stallMillis);
    }

    long now() {
        return clock.millis();
    }

    /** Tells the operator what the results do not cover; returns the exit code it implies. */
    int warn(JournalReader.Report report) {
        if (report.unreadable() > 0) {
            err.println("effectful journal: warning: " + report.unreadable()
                    + " record(s) could not be decoded and were skipped (run verify)");
        }
        if (report.incompleteTail()) {
            err.println("effectful journal: warning: the journal ends in an incomplete record"
                    + " (its writer stopped mid-write; that record is not counted)");
        }
        if (report.damage() != null) {
            err.println("effectful journal: warning: partial results: " + report.damage());
        }
        if (report.stalled()) {
            err.println("effectful journal: warning: partial results: reading stopped advancing after "
                    + report.records() + " records and was abandoned");
        }
        return report.partial() ? LOOK : OK;
    }

    /** Picocli's --version: the agent jar's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = System.getProperty("effectful.version");
            if (v == null && JournalCli.class.getPackage() != null) {
                v = JournalCli.class.getPackage().getImplementationVersion();
            }
            return new String[]{"effectful journal " + (v == null ? "(version unknown: not run from the agent jar)" : v)};
        }
    }
}
