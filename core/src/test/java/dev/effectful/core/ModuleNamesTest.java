package dev.effectful.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A module's name says where its code is: every main source file of every module in the reactor sits under
 * the package root its directory names ({@code core/} holds {@code dev.effectful.core.*},
 * {@code instrumentation/spring-ai/} holds {@code dev.effectful.instrumentation.springai.*},
 * {@code integration-tests/x/} holds {@code dev.effectful.it.x.*}). A newcomer who knows a package finds
 * its module, and the other way round; a class written into the wrong module fails here, naming both.
 */
class ModuleNamesTest {

    /** Modules whose root is not spelt by their directory, each with the reason. */
    private static final Map<String, String> ROOTS_BY_CONTRACT = Map.of(
            // the API's package is fixed by the public contract: applications import dev.effectful.*
            "annotations", "dev.effectful",
            // premain's classes and the bridge both live outside the agent's loader; the agent is their root
            "agent-bootstrap", "dev.effectful.agent",
            "demo-app", "dev.effectful.demo");

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)");

    @Test
    void everyMainSourceSitsUnderItsModulesPackageRoot() throws IOException {
        Path root = reactorRoot();
        List<String> modules = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        while (m.find()) {
            modules.add(m.group(1));
        }
        assertThat(modules).as("the reactor's modules").contains("core", "runtime", "cli", "agent");

        List<String> misplaced = new ArrayList<>();
        int checked = 0;
        for (String module : modules) {
            List<String> roots = rootsOf(module);
            for (Path sources : List.of(root.resolve(module).resolve("src/main/java"), root.resolve(module).resolve("src/main/kotlin"))) {
                if (!Files.isDirectory(sources)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java") || f.toString().endsWith(".kt"))::iterator) {
                        Matcher p = PACKAGE.matcher(Files.readString(file));
                        String pkg = p.find() ? p.group(1) : "";
                        checked++;
                        if (roots.stream().noneMatch(r -> pkg.equals(r) || pkg.startsWith(r + "."))) {
                            misplaced.add(root.relativize(file) + " is in package '" + pkg + "', outside " + roots);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("main sources found").isGreaterThan(300);
        assertThat(misplaced).as("sources outside their module's package root").isEmpty();
    }

    /** {@code instrumentation/spring-ai} → {@code dev.effectful.instrumentation.springai} (or {@code .spring.ai}). */
    static List<String> rootsOf(String module) {
        String fixed = ROOTS_BY_CONTRACT.get(module);
        if (fixed != null) {
            return List.of(fixed);
        }
        String path = module.replaceFirst("^integration-tests/", "it/");
        String dotted = "dev.effectful." + path.replace('/', '.');
        return List.of(dotted.replace("-", ""), dotted.replace('-', '.'));
    }

    private static Path reactorRoot() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>core</module>")) {
                return dir;
            }
        }
        throw new IllegalStateException("no reactor root above " + Path.of("").toAbsolutePath());
    }
}
