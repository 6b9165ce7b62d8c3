package dev.effectful.testsupport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Main code stays readable in one sitting: no source file over {@link #MAX_CLASS_LINES} lines, no method over
 * {@link #MAX_METHOD_LINES}, across every module of the tree (the benchmarks included).
 */
class SourceShapesTest {

    static final int MAX_CLASS_LINES = 450;
    static final int MAX_METHOD_LINES = 80;

    private static final Path ROOT = SourceShapes.repositoryRoot(Path.of(""));

    @Test
    void noMainSourceFileIsLongerThanTheLimit() throws IOException {
        List<Path> sources = SourceShapes.mainSources(ROOT);
        assertThat(sources).as("main sources under " + ROOT).hasSizeGreaterThan(300);
        List<String> tooLong = new ArrayList<>();
        for (Path p : sources) {
            long lines = Files.readAllLines(p).size();
            if (lines > MAX_CLASS_LINES) {
                tooLong.add(ROOT.relativize(p) + ": " + lines + " lines");
            }
        }
        assertThat(tooLong).as("split what mixes concerns; over " + MAX_CLASS_LINES + " lines").isEmpty();
    }

    @Test
    void noMainMethodIsLongerThanTheLimit() throws IOException {
        List<String> tooLong = new ArrayList<>();
        int methods = 0;
        for (Path p : SourceShapes.mainSources(ROOT)) {
            for (SourceShapes.Method m : SourceShapes.methods(p, Files.readString(p))) {
                methods++;
                if (m.lines() > MAX_METHOD_LINES) {
                    tooLong.add(ROOT.relativize(p) + ":" + m.line() + ": " + m.lines() + " lines");
                }
            }
        }
        assertThat(methods).as("methods found").isGreaterThan(2000);
        assertThat(tooLong).as("methods over " + MAX_METHOD_LINES + " lines").isEmpty();
    }

    @Test
    void methodsAreFoundInNestedTypesAndLambdasCountTowardTheirMethod() {
        String src = """
                package x;
                /** a { brace in a comment */
                final class A {
                    String s = "a { brace in a string";
                    A() throws java.io.IOException {
                        run(() -> {
                            System.out.println('{');
                        });
                    }
                    record R(int a) {
                        int twice() {
                            return a * 2;
                        }
                    }
                    static {
                        System.out.println("static block");
                    }
                    void take(Object record) {
                    }
                    void text() {
                        String t = \"""
                            { not code
                            \""";
                    }
                }
                """;
        List<SourceShapes.Method> found = SourceShapes.methods(Path.of("A.java"), src);
        assertThat(found).extracting(SourceShapes.Method::line, SourceShapes.Method::lines)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(5, 5),
                        org.assertj.core.groups.Tuple.tuple(11, 3),
                        org.assertj.core.groups.Tuple.tuple(18, 2),
                        org.assertj.core.groups.Tuple.tuple(20, 5));
    }
}
