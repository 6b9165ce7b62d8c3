package dev.effectful.agent.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The JDKs the end-to-end tests run on: the one running the tests (17) and JDK 25 where present. */
public record Jdk(String name, String home) {

    public static Jdk current() {
        return new Jdk("jdk" + Runtime.version().feature(), System.getProperty("java.home"));
    }

    /** JDK 25 from the effectful.jdk25.home property, if that directory holds a java binary. */
    public static java.util.Optional<Jdk> jdk25() {
        String home = System.getProperty("effectful.jdk25.home", "");
        if (home.isBlank() || !Files.isExecutable(Path.of(home, "bin", "java"))) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Jdk("jdk25", home));
    }

    /** Every JDK available here, for parameterized tests. */
    public static List<Jdk> all() {
        List<Jdk> all = new ArrayList<>();
        all.add(current());
        jdk25().ifPresent(all::add);
        return all;
    }

    @Override
    public String toString() {
        return name;
    }
}
