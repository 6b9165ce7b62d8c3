package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleServer;
import dev.effectful.cli.console.Views;
import dev.effectful.core.journal.RootCause;
import dev.effectful.core.journal.JournalLock;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.Verdict;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The console's view of one local journal, read beside its live writer: one pass at start, then the
 * records appended since, a few times a second, into the same {@link JournalIntents} the CLI's commands
 * build. While that pass runs, the desk (the first page) is answered from the agent's index snapshot and
 * the journal after it ({@link SnapshotIntents}), followed the same way, so it shows in about a second on a
 * journal of millions of records; the pages that need every record (overview, task, intent) wait for the
 * pass. A verdict goes through {@code journal resolve} itself (the live request when an agent writes
 * the journal), so the console never writes the journal on its own.
 */
final class JournalConsole extends RefreshedConsole implements AutoCloseable {

    private static final long FOLLOW_MILLIS = 200;
    private static final int SEARCH_LIMIT = 200;

    private final JournalReader reader;
    private final Object lock = new Object();
    private final ToolActivity activity = new ToolActivity();
    private JournalIntents table; // guarded by lock; null until the first pass ends
    private long lastIndex = -1; // guarded by lock
    /** The desk's table until the first pass ends: from the snapshot, when it can answer; else null. */
    private JournalIntents quick; // guarded by lock
    private long quickIndex = -1; // guarded by lock
    /** The intent records the snapshot's read already holds, so the desk does not read them again. */
    private Map<Long, JournalRecord> quickRecords = Map.of(); // guarded by lock
    private volatile String problem;
    private volatile String reading = "Reading the journal; this page updates when it is done.";
    private volatile long readSoFar; // written by the reader thread only

    private JournalConsole(JournalCli cli, JournalReader reader) {
        super(cli, "effectful-console-reader");
        this.reader = reader;
    }

    /** Opens the journal read-only and starts reading it; pages are served before the first pass ends. */
    static JournalConsole open(JournalCli cli) throws CliException {
        JournalConsole c = new JournalConsole(cli, cli.openReader());
        c.start();
        return c;
    }

    /** Opened, and not reading: a test calls {@link #readSnapshot} and {@link #firstPass} itself. */
    static JournalConsole unstarted(JournalCli cli) throws CliException {
        return new JournalConsole(cli, cli.openReader());
    }

    @Override
    void refresh() {
        try {
            if (readSnapshot()) {
                Thread t = new Thread(this::followQuick, "effectful-console-desk-reader");
                t.setDaemon(true);
                t.start();
            }
            firstPass();
            String writer = liveWriter();
            while (!closed) {
                Thread.sleep(FOLLOW_MILLIS);
                String nowWriter = liveWriter();
                if (!nowWriter.equals(writer)) {
                    writer = nowWriter; // a writer started or died: its calls are no longer (or now) in flight
                    version++;
                }
                if (reader.lastIndex() == lastIndex) {
                    continue;
                }
                synchronized (lock) {
                    reader.scanSummariesAfter(lastIndex, (i, r) -> {
                        table.accept(i, r);
                        activity.accept(r);
                        lastIndex = i;
                    });
                }
                version++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (CliException | RuntimeException e) {
            problem = "the console stopped reading the journal: " + RootCause.firstLine(e)
                    + "; restart it (journal verify tells whether the journal is damaged)";
            version++;
        }
    }

    /** The desk's table from the agent's index snapshot and the journal after it; false when it cannot answer. */
    boolean readSnapshot() {
        try {
            // summaries: the desk shows a bounded number of intents and reads those records whole itself
            Optional<SnapshotIntents.Read> fast = SnapshotIntents.fromSnapshot(reader, true);
            if (fast.isEmpty()) {
                return false;
            }
            synchronized (lock) {
                quick = fast.get().table();
                quickIndex = fast.get().lastIndex();
                quickRecords = fast.get().records();
            }
            version++;
            return true;
        } catch (CliException | RuntimeException e) {
            return false; // the first pass answers, as without a snapshot
        }
    }

    /** Reads every record once: from then on every page answers from the whole journal. */
    void firstPass() throws CliException {
        // the first pass holds no lock: pages answer "reading" meanwhile instead of waiting for it
        JournalIntents first = JournalIntents.forJournal(reader);
        long expected = reader.recordCountHint();
        long[] last = {-1};
        reader.scanSummaries((i, r) -> {
            first.accept(i, r);
            activity.accept(r);
            last[0] = i;
            if (++readSoFar % 100_000 == 0) {
                reading = String.format("Reading the journal: %,d of about %,d records so far; this page updates"
                        + " when it is done.", readSoFar, expected);
                version++;
            }
        });
        synchronized (lock) {
            table = first;
            lastIndex = last[0];
            quick = null; // the whole journal now answers every page
            quickRecords = Map.of();
        }
        version++;
    }

    /**
     * Keeps the snapshot's table current, as {@link #follow} keeps the full one, until the first pass ends.
     * Drops it (the desk then says it is reading) if what was appended needs records before the snapshot.
     */
    private void followQuick() {
        try {
            while (!closed) {
                Thread.sleep(FOLLOW_MILLIS);
                synchronized (lock) {
                    if (quick == null || closed) {
                        return;
                    }
                    if (reader.lastIndex() == quickIndex) {
                        continue;
                    }
                    reader.scanSummariesAfter(quickIndex, (i, r) -> {
                        quick.accept(i, r);
                        quickIndex = i;
                    });
                    if (quick.needsHistory()) {
                        quick = null;
                        quickRecords = Map.of();
                    }
                }
                version++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (CliException | RuntimeException e) {
            synchronized (lock) {
                quick = null; // the first pass still answers, when it ends
                quickRecords = Map.of();
            }
            version++;
        }
    }

    /**
     * Which process holds the writer lock and whether it is alive, read without taking the lock (a
     * probe of the lock every few hundred milliseconds could be what a starting agent meets).
     */
    private String liveWriter() {
        String holder = JournalLock.holderOf(reader.directory());
        boolean alive = false;
        try {
            alive = ProcessHandle.of(Long.parseLong(holder)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException unknown) {
            // no lock file, or one an older writer left: nobody we can see
        }
        return holder + (alive ? " alive" : " gone");
    }

    @Override
    public String source() {
        return cli.journalDir().toAbsolutePath().toString();
    }

    @Override
    public Views.Desk desk() {
        synchronized (lock) {
            // the snapshot's table until the whole journal is read: the desk is the page a person opens first
            JournalIntents listing = table != null ? table : quick;
            if (listing == null) {
                return new Views.Desk(List.of(), List.of(), List.of(), List.of(), problem != null ? problem : reading);
            }
            return DeskLists.desk(reader, listing, table != null ? Map.of() : quickRecords, problem, this::held);
        }
    }

    @Override
    public Optional<Views.IntentPage> intent(String given) {
        synchronized (lock) {
            if (table == null) {
                return Optional.empty();
            }
            int row = table.find(given);
            if (row < 0) {
                return Optional.empty();
            }
            JournalIntents.Intent i = table.intent(row);
            List<JournalRecord> records = new ArrayList<>();
            try {
                reader.scan((index, r) -> {
                    if (i.key().equals(r.intentKey())) {
                        records.add(r);
                    }
                });
            } catch (CliException e) {
                problem = e.getMessage();
            }
            JournalRecord latestIntent = null;
            String told = null;
            long firstStarted = 0;
            List<Views.Event> history = new ArrayList<>();
            for (JournalRecord r : records) {
                if (r.type() == RecordType.INTENT || r.type() == RecordType.APPROVAL_REQUESTED && latestIntent == null) {
                    latestIntent = r;
                    if (firstStarted == 0) {
                        firstStarted = r.started();
                    }
                }
                if (r.message() != null && (r.type() == RecordType.OUTCOME || r.type() == RecordType.DEDUP
                        || r.type() == RecordType.REFUSED || r.type() == RecordType.PROBE)) {
                    told = r.message();
                }
                history.add(event(r, false));
            }
            Views.Held h = held(i, latestIntent, i.state().word);
            boolean approvable = i.state() == JournalIntents.State.AWAITING_APPROVAL;
            String base = "java -jar effectful-agent.jar journal --dir " + shellWord(source());
            String since = firstStarted > 0 ? Times.human(firstStarted, cli.zone) + " (" + Times.duration(cli.now() - firstStarted)
                    + " ago)" : "-";
            return Optional.of(approvable
                    ? new Views.IntentPage(h, history, told == null ? "(nothing yet)" : told, since, false, true,
                            base + " approve " + i.key() + " --note '...'", base + " deny " + i.key() + " --note '...'")
                    : new Views.IntentPage(h, history, told == null ? "(nothing yet)" : told, since, i.state().unresolved,
                            false, base + " resolve " + i.key() + " --applied yes --note '...'",
                            base + " resolve " + i.key() + " --applied no --note '...'"));
        }
    }

    @Override
    public Views.TaskPage task(String task) {
        synchronized (lock) {
            if (table == null) {
                return new Views.TaskPage(task, null, List.of()); // the reader owns the journal until its first pass ends
            }
            Map<String, List<Views.Event>> byKey = new LinkedHashMap<>();
            List<Views.Event> loose = new ArrayList<>();
            String[] actor = {null};
            try {
                reader.scan((index, r) -> {
                    if (!task.equals(r.task())) {
                        return;
                    }
                    if (actor[0] == null) {
                        actor[0] = r.actor();
                    }
                    if (r.intentKey() == null) {
                        byKey.computeIfAbsent("#" + index, k -> new ArrayList<>()).add(event(r, false));
                        return;
                    }
                    List<Views.Event> group = byKey.computeIfAbsent(r.intentKey(), k -> new ArrayList<>());
                    boolean repeat = !group.isEmpty() && (r.type() == RecordType.DEDUP || r.type() == RecordType.REFUSED);
                    group.add(event(r, repeat));
                });
            } catch (CliException e) {
                problem = e.getMessage();
            }
            byKey.values().forEach(loose::addAll);
            return new Views.TaskPage(task, actor[0], loose);
        }
    }

    @Override
    public Views.Overview overview(String query) {
        synchronized (lock) {
            long now = cli.now();
            if (table == null) {
                return new Views.Overview(0, 0, 0, null, List.of(), List.of(), query, List.of(), false);
            }
            List<UnresolvedCommand.Row> rows = UnresolvedCommand.rows(reader, table);
            long person = 0;
            long oldest = Long.MAX_VALUE;
            for (UnresolvedCommand.Row r : rows) {
                if (r.needsPerson()) {
                    person++;
                    if (r.latestIntent() != null && r.latestIntent().started() > 0) {
                        oldest = Math.min(oldest, r.latestIntent().started());
                    }
                }
            }
            List<Views.Held> matches = new ArrayList<>();
            if (!query.isEmpty()) {
                String q = query.toLowerCase(Locale.ROOT);
                for (int row = 0; row < table.size() && matches.size() < SEARCH_LIMIT; row++) {
                    JournalIntents.Intent i = table.intent(row);
                    if (i.key().startsWith(q) || contains(i.task(), q) || contains(i.call(), q) || contains(i.actor(), q)) {
                        JournalRecord r = i.intentIndex() < 0 ? null : reader.read(i.intentIndex()).orElse(null);
                        matches.add(held(i, r, i.state().word));
                    }
                }
            }
            return new Views.Overview(rows.size(), person, table.awaitingApproval().size(),
                    oldest == Long.MAX_VALUE ? null : Times.duration(now - oldest) + " (since " + Times.human(oldest, cli.zone) + ")",
                    activity.last(now, 60), activity.last(now, 24 * 60), query, matches, !query.isEmpty());
        }
    }

    @Override
    public Views.Done resolve(String key, boolean applied, String note, String resultJson, String person) {
        List<String> args = new ArrayList<>(List.of("--dir", cli.journalDir().toString(), "resolve", key,
                "--applied", applied ? "yes" : "no", "--note", note + " (" + person + ")"));
        if (resultJson != null) {
            args.add("--result");
            args.add(resultJson);
        }
        return viaCli(cli, args, key);
    }

    @Override
    public Views.Done approve(String key, Verdict verdict, String note, String person) {
        return viaCli(cli, List.of("--dir", cli.journalDir().toString(), ConsoleServer.action(verdict), key,
                "--note", note, "--by", person), key);
    }

    /**
     * Runs a CLI command in this process, as a person would in a shell (the same checks, the same live
     * hand-over, the same words), and turns what it printed into the page's answer.
     */
    static Views.Done viaCli(JournalCli cli, List<String> args, String key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = JournalCli.run(args.toArray(String[]::new), o, e, cli.env, false, cli.clock, cli.stallMillis);
        }
        List<String> lines = new ArrayList<>();
        out.toString(StandardCharsets.UTF_8).lines().forEach(lines::add);
        err.toString(StandardCharsets.UTF_8).lines().map(l -> l.replaceFirst("^effectful journal: ", "")).forEach(lines::add);
        return new Views.Done(code == JournalCli.OK, code == JournalCli.OK ? "Recorded" : "Not recorded", lines,
                dev.effectful.cli.console.ConsoleServer.Links.intent(key));
    }

    private Views.Held held(JournalIntents.Intent i, JournalRecord latestIntent, String state) {
        long started = latestIntent == null ? 0 : latestIntent.started();
        return new Views.Held(i.key(), shortKey(i.key()), i.task(), i.actor(), i.call(), i.kind(), state,
                i.probe() == null ? "-" : i.probe(), i.attempt(),
                started > 0 ? Times.human(started, cli.zone) : "-",
                started > 0 ? Times.duration(cli.now() - started) : "-",
                latestIntent == null || latestIntent.args() == null ? "" : latestIntent.args(),
                i.settles(), JournalIntents.inFlight(state), null);
    }

    private Views.Event event(JournalRecord r, boolean repeat) {
        return new Views.Event(r.started() > 0 ? Times.human(r.started(), cli.zone) : "-", r.type().word(),
                r.intentKey(), r.intentKey() == null ? null : shortKey(r.intentKey()), r.call(), r.attempt(),
                r.outcome() == null ? (r.probe() == null ? null : r.probe().word()) : r.outcome().word(),
                r.effectApplied() == null ? null : r.effectApplied().word(), r.message(), r.args(), repeat);
    }

    static String shortKey(String key) {
        return key.length() > 12 ? key.substring(0, 12) : key;
    }

    private static boolean contains(String s, String q) {
        return s != null && s.toLowerCase(Locale.ROOT).contains(q);
    }

    private static String shellWord(String s) {
        return s.matches("[A-Za-z0-9_./:@-]+") ? s : "'" + s.replace("'", "'\\''") + "'";
    }

    @Override
    public void close() {
        stopRefreshing(2000);
        synchronized (lock) {
            reader.close();
        }
    }
}
