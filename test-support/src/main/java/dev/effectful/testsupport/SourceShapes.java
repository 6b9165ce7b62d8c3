package dev.effectful.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The length of each class file's source and of each method body in it, read from the source text: comments,
 * strings and text blocks are blanked, then braces are matched. A block opened in a class body right after a
 * closing parenthesis (and an optional {@code throws} clause) is a method or constructor; one opened after
 * {@code class}, {@code interface}, {@code enum} or {@code record} is a type body, so nested types' methods count
 * on their own. Blocks inside a method (lambdas, anonymous classes) count toward that method, as a reader meets
 * them. Good enough for a size limit, not a Java parser.
 */
public final class SourceShapes {

    /** A method body of {@code lines} lines starting at {@code line} of {@code file}. */
    public record Method(Path file, int line, int lines) {
    }

    private static final Pattern METHOD_HEAD = Pattern.compile("\\)\\s*(throws\\s+[\\w\\s.,<>]+)?$");
    private static final Pattern TYPE_HEAD = Pattern.compile("(^|[\\s@])(class|interface|enum|record)\\s+[A-Z]\\w*");

    private enum Block { TYPE, METHOD, OTHER }

    private SourceShapes() {
    }

    /** Every {@code src/main/java} source file under {@code root} (the repository), skipping build output. */
    public static List<Path> mainSources(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository's root: the nearest directory above {@code from} holding {@code mvnw} and a {@code pom.xml}. */
    public static Path repositoryRoot(Path from) {
        for (Path p = from.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root (mvnw and pom.xml) above " + from.toAbsolutePath());
    }

    /** The methods of one source text. */
    public static List<Method> methods(Path file, String source) {
        String code = blankCommentsAndLiterals(source);
        List<Method> out = new ArrayList<>();
        Deque<Block> blocks = new ArrayDeque<>();
        Deque<Integer> starts = new ArrayDeque<>();
        StringBuilder head = new StringBuilder();
        int line = 1;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\n') {
                line++;
            }
            if (c == '{') {
                Block parent = blocks.isEmpty() ? null : blocks.peek();
                String h = head.toString().strip();
                Block kind;
                if (parent == null || parent == Block.TYPE && TYPE_HEAD.matcher(h).find()) {
                    kind = Block.TYPE;
                } else if (parent == Block.TYPE && METHOD_HEAD.matcher(h).find()) {
                    kind = Block.METHOD;
                } else {
                    kind = Block.OTHER;
                }
                blocks.push(kind);
                starts.push(line);
                head.setLength(0);
            } else if (c == '}') {
                if (!blocks.isEmpty()) {
                    Block kind = blocks.pop();
                    int start = starts.pop();
                    if (kind == Block.METHOD) {
                        out.add(new Method(file, start, line - start + 1));
                    }
                }
                head.setLength(0);
            } else if (c == ';') {
                head.setLength(0);
            } else {
                head.append(c);
            }
        }
        return out;
    }

    /** Comments, string and character literals and text blocks blanked, their line breaks kept. */
    static String blankCommentsAndLiterals(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("//", i)) {
                int end = s.indexOf('\n', i);
                i = end < 0 ? s.length() : end;
            } else if (s.startsWith("/*", i)) {
                i = keepLineBreaks(s, i, s.indexOf("*/", i + 2) + 2, out);
            } else if (s.startsWith("\"\"\"", i)) {
                i = keepLineBreaks(s, i, s.indexOf("\"\"\"", i + 3) + 3, out);
                out.append("\"\"");
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char q = s.charAt(i);
                int j = i + 1;
                while (j < s.length() && s.charAt(j) != q) {
                    j += s.charAt(j) == '\\' ? 2 : 1;
                }
                out.append(q).append(q);
                i = j + 1;
            } else {
                out.append(s.charAt(i++));
            }
        }
        return out.toString();
    }

    private static int keepLineBreaks(String s, int from, int to, StringBuilder out) {
        int end = to < from ? s.length() : to;
        for (int k = from; k < end; k++) {
            if (s.charAt(k) == '\n') {
                out.append('\n');
            }
        }
        return end;
    }
}
