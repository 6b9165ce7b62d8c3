package dev.effectful.junit;

import org.opentest4j.AssertionFailedError;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Every verdict of one run of the kit against a tool, and how long it took. */
public record Report(String tool, List<Verdict> verdicts, long millis) {

    public List<Verdict> failures() {
        return verdicts.stream().filter(Verdict::failed).toList();
    }

    /** The verdict of {@code check} (the first, for the audit which may have several). */
    public Optional<Verdict> verdict(Check check) {
        return verdicts.stream().filter(v -> v.check() == check).findFirst();
    }

    public boolean passed() {
        return failures().isEmpty();
    }

    /** Fails the test with every failing verdict, each naming what to change; silent when all passed. */
    public Report assertPassed() {
        if (!passed()) {
            throw new AssertionFailedError(tool + " does not survive " + failures().size() + " of the injected failures"
                    + " (" + millis + " ms):\n" + failures().stream().map(Verdict::toString)
                    .collect(Collectors.joining("\n")));
        }
        return this;
    }

    @Override
    public String toString() {
        return tool + " (" + millis + " ms)\n" + verdicts.stream().map(Verdict::toString)
                .collect(Collectors.joining("\n"));
    }
}
