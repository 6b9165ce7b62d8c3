package dev.effectful.cli;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.effectful.cli.TestJournals.K_CRASH;
import static dev.effectful.cli.TestJournals.K_OK;
import static dev.effectful.cli.TestJournals.K_UNKNOWN;
import static dev.effectful.cli.TestJournals.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI over generated arguments, run in-process against a small real journal ({@link TestJournals}):
 * {@code resolve}, {@code approve}, {@code deny} and {@code show} with keys (whole, shortened, ambiguous,
 * unknown, not hex, empty, option-like), {@code --applied} words, {@code --result} text (JSON, not JSON,
 * deep, empty) and {@code --note} text (Unicode, control characters, empty, long). Every run ends with one
 * of the documented exit codes (docs/CLI.md: 0 done, 1 look, 2 usage, 3 unresolved, 4 refused), nothing
 * escapes as an exception, a failure says what is wrong on stderr in one line, and a refused or mistyped
 * command leaves the journal's records as they were. The CLI is what a person types while an incident is on:
 * a stack trace or a half-written verdict is exactly what must not happen then.
 */
@AddLifecycleHook(ScaledTries.class)
class JournalCliProperties {

    private static Path root;
    private static Path dir;
    private static String before;

    @BeforeContainer
    static void journal() throws IOException {
        root = Files.createTempDirectory("cli-properties");
        fresh();
    }

    /** A new scenario journal: after a verdict was recorded, the next try starts from the same records. */
    private static void fresh() throws IOException {
        dir = root.resolve("journal-" + System.nanoTime());
        TestJournals.writeScenario(dir);
        before = records();
    }

    @AfterContainer
    static void remove() throws IOException {
        try (var files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(f);
            }
        }
    }

    private static String records() {
        TestJournals.Run export = cli("--dir", dir.toString(), "export");
        assertThat(export.code()).as(export.err()).isEqualTo(0);
        return export.out();
    }

    private static Arbitrary<String> text() {
        return Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.strings().ofMaxLength(30)),
                Tuple.of(2, Arbitraries.strings().withChars("ab é日\uD83D\uDE00\n\r\t\u001b[\"{}\\-").ofMaxLength(20)),
                Tuple.of(1, Arbitraries.of("", " ", "--force", "-h", "--note", "checked the ledger")),
                Tuple.of(1, Arbitraries.strings().alpha().ofLength(3000)));
    }

    private static Arbitrary<String> key() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(K_OK, K_CRASH, K_UNKNOWN, TestJournals.K_PROBE_FAILED, TestJournals.K_RETRY)),
                Tuple.of(2, Arbitraries.of(K_CRASH, K_UNKNOWN, "00000000000000000000000000000003")
                        .flatMap(k -> Arbitraries.integers().between(0, 32).map(n -> k.substring(0, n)))),
                Tuple.of(1, Arbitraries.strings().withChars("0123456789abcdefABCDEFg").ofMinLength(1).ofMaxLength(40)),
                Tuple.of(1, text()));
    }

    private static Arbitrary<String> result() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of("{\"id\":1}", "1", "null", "\"x\"", "[1,2", "{", "receipt-42", "", "{\"a\":\"\\ud800\"}")),
                Tuple.of(1, Arbitraries.integers().between(1, 3000).map(n -> "[".repeat(n) + "]".repeat(n))),
                Tuple.of(1, text()));
    }

    @Provide
    Arbitrary<List<String>> arguments() {
        Arbitrary<List<String>> options = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of("yes", "no", "maybe", "", "YES").map(a -> List.of("--applied", a))),
                Tuple.of(3, text().map(n -> List.of("--note", n))),
                Tuple.of(2, result().map(r -> List.of("--result", r))),
                Tuple.of(1, Arbitraries.just(List.of("--force"))),
                Tuple.of(1, Arbitraries.of("0", "-1", "x").map(w -> List.of("--wait", w))),
                Tuple.of(1, text().map(List::of)),
                Tuple.of(1, text().map(b -> List.of("--by", b))))
                .list().ofMaxSize(5).map(l -> {
                    List<String> all = new ArrayList<>();
                    l.forEach(all::addAll);
                    return all;
                });
        return Combinators.combine(Arbitraries.of("resolve", "resolve", "resolve", "approve", "deny", "show"), key(), options)
                .as((command, key, opts) -> {
                    List<String> args = new ArrayList<>(List.of(command, key));
                    args.addAll(opts);
                    return args;
                });
    }

    @Property(tries = 80)
    void anyArgumentsEndInADocumentedCodeAndARefusalChangesNothing(@ForAll("arguments") List<String> args)
            throws IOException {
        List<String> all = new ArrayList<>(List.of("--dir", dir.toString()));
        all.addAll(args);
        TestJournals.Run r = cli(all.toArray(String[]::new));
        assertThat(r.code()).as("exit code of %s: %s", args, r.err()).isBetween(0, 4);
        String err = r.err().strip();
        if (r.code() == JournalCli.USAGE || r.code() == JournalCli.REFUSED) {
            assertThat(err).as("%s", args).startsWith("effectful journal: ");
            assertThat(err.lines().count()).as("stderr of %s:\n%s", args, err).isEqualTo(1);
        }
        boolean verdict = !args.get(0).equals("show");
        if (verdict && r.code() != JournalCli.OK) {
            assertThat(records()).as("journal after refused %s: %s", args, err).isEqualTo(before);
        }
        if (verdict && r.code() == JournalCli.OK) {
            fresh();
        }
    }
}
