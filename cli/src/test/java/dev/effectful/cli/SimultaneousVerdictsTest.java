package dev.effectful.cli;

import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ResolutionRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.effectful.cli.TestJournals.K_CRASH;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two verdicts on one intent given at the same moment, with no agent writing the journal: from two shells,
 * from two console tabs, from a tab and a shell. Exactly one is recorded; the other is told the intent is
 * already decided and which verdict stands; nothing is left in the request directory. Each pair is raced
 * {@link #ROUNDS} times on a fresh journal, both sides released together by a barrier.
 */
class SimultaneousVerdictsTest {

    static final int ROUNDS = 20;
    static final String K_APPROVAL = "0000000000000000000000000000000b";

    @TempDir
    Path tmp;

    /** A journal whose {@link #K_APPROVAL} waits for approval and whose {@link TestJournals#K_CRASH} is held. */
    static Path journal(Path dir) throws Exception {
        TestJournals.writeScenario(dir);
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            j.append(JournalRecord.of(RecordType.APPROVAL_REQUESTED).task("ord-5").actor("agent-7").call("refund")
                    .kind(Kind.MONEY).intentKey(K_APPROVAL).started(System.currentTimeMillis()).args("{\"cents\":500}")
                    .build());
        }
        return dir;
    }

    /** What one side of a race was answered: success, and the words shown to the person. */
    record Answer(boolean recorded, String words) {
        static Answer of(TestJournals.Run r) {
            return new Answer(r.code() == JournalCli.OK, r.out() + r.err());
        }

        static Answer of(HttpResponse<String> page) {
            return new Answer(page.statusCode() == 200 && page.body().contains("Recorded"), page.body());
        }
    }

    /** Runs both at the same moment (a barrier releases them together) and returns their answers. */
    static List<Answer> together(Callable<Answer> a, Callable<Answer> b) throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            List<Future<Answer>> both = new ArrayList<>();
            for (Callable<Answer> side : List.of(a, b)) {
                both.add(two.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return side.call();
                }));
            }
            List<Answer> answers = new ArrayList<>();
            for (Future<Answer> f : both) {
                answers.add(f.get(60, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            two.shutdownNow();
        }
    }

    static List<JournalRecord> verdicts(Path dir, String key, RecordType type) throws CliException {
        List<JournalRecord> out = new ArrayList<>();
        try (JournalReader r = JournalReader.open(dir, 2_000)) {
            r.scan((i, rec) -> {
                if (rec.type() == type && key.equals(rec.intentKey())) {
                    out.add(rec);
                }
            });
        }
        return out;
    }

    static List<String> leftIn(Path dir) throws Exception {
        Path requests = ResolutionRequest.dir(dir);
        if (!Files.isDirectory(requests)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(requests)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    /**
     * One recorded, one told the truth naming the verdict that stands ({@code standsAs} of the winner's
     * words), one record in the journal, no file left behind.
     */
    static void exactlyOne(int round, Path dir, String key, RecordType type, List<Answer> answers,
                           java.util.function.Function<JournalRecord, String> standsAs) throws Exception {
        String seen = "round " + round + ": " + answers;
        assertThat(answers.stream().filter(Answer::recorded)).as(seen).hasSize(1);
        List<JournalRecord> recorded = verdicts(dir, key, type);
        assertThat(recorded).as(seen).hasSize(1);
        Answer loser = answers.stream().filter(x -> !x.recorded()).findFirst().orElseThrow();
        assertThat(loser.words()).as(seen).contains("already").contains(standsAs.apply(recorded.get(0)));
        assertThat(leftIn(dir)).as(seen + ": files left in resolutions/").isEmpty();
    }

    static String approver(JournalRecord r) {
        return r.verdict() + " by " + r.by();
    }

    static String resolver(JournalRecord r) {
        return r.message();
    }

    /** One round of a race: its number and a fresh journal of the scenario. */
    interface Round {
        void run(int round, Path dir) throws Exception;
    }

    /** {@link #ROUNDS} rounds of a race, each on a fresh journal of the scenario in {@code tmp/<prefix>-<round>}. */
    void rounds(String prefix, Round race) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            race.run(round, journal(tmp.resolve(prefix + "-" + round)));
        }
    }

    static Callable<Answer> shell(Path dir, String... command) {
        List<String> args = new ArrayList<>(List.of("--dir", dir.toString()));
        args.addAll(List.of(command));
        return () -> Answer.of(TestJournals.cli(args.toArray(String[]::new)));
    }

    /** Two shells giving a verdict on one intent at the same moment, and the one record that must result. */
    record ShellRace(String name, String dirPrefix, String[] first, String[] second, String key, RecordType type,
                     java.util.function.Function<JournalRecord, String> standsAs) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<ShellRace> shellRaces() {
        return Stream.of(
                new ShellRace("two shells approving at once record one approval", "aa",
                        new String[] {"approve", K_APPROVAL, "--note", "ok", "--by", "ann"},
                        new String[] {"approve", K_APPROVAL, "--note", "fine", "--by", "bob"},
                        K_APPROVAL, RecordType.APPROVAL, SimultaneousVerdictsTest::approver),
                new ShellRace("an approval and a denial at once record one verdict", "ad",
                        new String[] {"approve", K_APPROVAL, "--note", "ok", "--by", "ann"},
                        new String[] {"deny", K_APPROVAL, "--note", "too much", "--by", "bob"},
                        K_APPROVAL, RecordType.APPROVAL, SimultaneousVerdictsTest::approver),
                new ShellRace("two shells resolving at once record one resolution", "rr",
                        new String[] {"resolve", K_CRASH, "--applied", "yes", "--note", "in the shop"},
                        new String[] {"resolve", K_CRASH, "--applied", "no", "--note", "not in the shop"},
                        K_CRASH, RecordType.RESOLUTION, SimultaneousVerdictsTest::resolver));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shellRaces")
    void twoShellsAtOnceRecordOneVerdict(ShellRace race) throws Exception {
        rounds(race.dirPrefix(), (round, dir) -> {
            List<Answer> answers = together(shell(dir, race.first()), shell(dir, race.second()));
            exactlyOne(round, dir, race.key(), race.type(), answers, race.standsAs());
        });
    }

    /** A console tab signed in at the desk, an intent's page open: the session's cookie and the page's form token. */
    record Tab(String cookie, String csrf) {
        static Tab open(TestConsole console, String key) throws Exception {
            String cookie = console.signIn();
            console.desk(cookie, "refund");
            return new Tab(cookie, TestConsole.csrf(console.get("/intent/" + key, cookie).body()));
        }
    }

    @Test
    void twoConsoleTabsPostingAtOnceRecordOneVerdict() throws Exception {
        rounds("tabs", (round, dir) -> {
            try (TestConsole console = TestConsole.start(dir, false)) {
                Tab tab = Tab.open(console, K_APPROVAL);
                String path = "/intent/" + K_APPROVAL;
                List<Answer> answers = together(
                        () -> Answer.of(console.post(path + "/approve", tab.cookie(), "csrf=" + tab.csrf() + "&note=ok&person=Ann")),
                        () -> Answer.of(console.post(path + "/deny", tab.cookie(), "csrf=" + tab.csrf() + "&note=no&person=Bob")));
                exactlyOne(round, dir, K_APPROVAL, RecordType.APPROVAL, answers, SimultaneousVerdictsTest::approver);
            }
        });
    }

    @Test
    void aConsoleTabAndAShellAtOnceRecordOneVerdict() throws Exception {
        rounds("mixed", (round, dir) -> {
            try (TestConsole console = TestConsole.start(dir, false)) {
                Tab tab = Tab.open(console, K_CRASH);
                String cookie = tab.cookie();
                String csrf = tab.csrf();
                List<Answer> resolved = together(
                        () -> Answer.of(console.post("/intent/" + K_CRASH + "/resolve", cookie, "csrf=" + csrf
                                + "&applied=yes&note=in+the+shop&person=Ann")),
                        shell(dir, "resolve", K_CRASH, "--applied", "no", "--note", "not in the shop"));
                exactlyOne(round, dir, K_CRASH, RecordType.RESOLUTION, resolved, SimultaneousVerdictsTest::resolver);
                List<Answer> approved = together(
                        () -> Answer.of(console.post("/intent/" + K_APPROVAL + "/approve", cookie, "csrf=" + csrf
                                + "&note=ok&person=Ann")),
                        shell(dir, "approve", K_APPROVAL, "--note", "fine", "--by", "bob"));
                exactlyOne(round, dir, K_APPROVAL, RecordType.APPROVAL, approved, SimultaneousVerdictsTest::approver);
            }
        });
    }
}
