package dev.effectful;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README stays a front door (short, with a table of contents, reference in docs/), and nothing a
 * user or a newcomer reads narrates the project's history: no issue numbers in the docs or in main code.
 */
class DocsShapeTest {

    /** An issue number, or a run diary ("this session", "run 2 of 3"): history belongs in git. */
    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissue\\s+#?[0-9]+|this session|\\brun [0-9] of");

    @Test
    void theReadmeIsAFrontDoorThatLinksEveryDocsPage() throws IOException {
        Path root = ExamplesCompileTest.root();
        List<String> readme = Files.readAllLines(root.resolve("README.md"), StandardCharsets.UTF_8);
        assertThat(readme.size()).as("README.md lines (reference belongs in docs/)").isLessThanOrEqualTo(400);
        String text = String.join("\n", readme);
        assertThat(text).contains("## Documentation");
        try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).forEach(p ->
                    assertThat(text).as("the README links docs/" + p.getFileName()).contains("docs/" + p.getFileName()));
        }
    }

    @Test
    void noIssueNumbersInDocsOrMainCode() throws IOException {
        Path root = ExamplesCompileTest.root();
        List<String> hits = new ArrayList<>();
        List<Path> files = new ArrayList<>(ExamplesCompileTest.userDocs(root));
        files.add(root.resolve("ARCHITECTURE.md"));
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(p -> p.toString().replace('\\', '/').contains("/src/main/") && p.toString().endsWith(".java"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .forEach(files::add);
        }
        for (Path f : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (int i = 0; i < lines.size(); i++) {
                if (ISSUE.matcher(lines.get(i)).find()) {
                    hits.add(root.relativize(f) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(hits).as("history belongs in commit messages, not in docs or code").isEmpty();
    }
}
