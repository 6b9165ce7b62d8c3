package dev.effectful.it.events;

import java.io.File;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The forked apps' class path, less the jars of libraries a test's application must not have. */
final class Classpaths {

    private Classpaths() {
    }

    static String without(String... jarNameParts) {
        String all = System.getProperty("effectful.test.classpath");
        return Arrays.stream(all.split(File.pathSeparator))
                .filter(e -> Arrays.stream(jarNameParts).noneMatch(p -> new File(e).getName().contains(p)))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
