package dev.effectful.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * An aligned text table. Widths are measured on the plain text and colour is applied after
 * padding, so escape codes never push a column out of line.
 */
final class Table {
    /** Characters of rows written to the stream at once. */
    private static final int BLOCK = 1 << 16;

    private final String[] headers;
    private final boolean[] rightAligned;
    private final List<Cell[]> rows = new ArrayList<>();

    /** A cell's text and its ANSI colour code (null for none). */
    record Cell(String text, String colour) {
        Cell {
            text = clean(text);
        }

        static Cell of(Object o) {
            if (o instanceof Cell c) {
                return c;
            }
            return new Cell(o == null ? "-" : o.toString(), null);
        }
    }

    /** Headers ending in '>' are right-aligned (numbers); the marker is not printed. */
    Table(String... headers) {
        this.headers = new String[headers.length];
        this.rightAligned = new boolean[headers.length];
        for (int i = 0; i < headers.length; i++) {
            rightAligned[i] = headers[i].endsWith(">");
            this.headers[i] = rightAligned[i] ? headers[i].substring(0, headers[i].length() - 1) : headers[i];
        }
    }

    Table row(Object... cells) {
        Cell[] r = new Cell[headers.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = Cell.of(i < cells.length ? cells[i] : null);
        }
        rows.add(r);
        return this;
    }

    int size() {
        return rows.size();
    }

    void print(PrintStream out, Style style) {
        print(out, style, true);
    }

    /** Without the header: later batches of {@code tail --follow}. */
    void print(PrintStream out, Style style, boolean header) {
        int[] width = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            width[i] = headers[i].length();
        }
        for (Cell[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].text().length());
            }
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < headers.length; i++) {
            pad(line, headers[i], width[i], rightAligned[i], i == headers.length - 1);
        }
        if (header) {
            out.println(style.paint("1", line.toString().stripTrailing()));
        }
        // rows go out in blocks of about 64 KiB, not a line at a time: the CLI's stdout is not buffered (so a
        // console's URL or a follower's line shows at once), and a listing of many rows paid two writes a row
        StringBuilder block = new StringBuilder(BLOCK + 1024);
        for (Cell[] r : rows) {
            line.setLength(0);
            for (int i = 0; i < r.length; i++) {
                int start = line.length();
                pad(line, r[i].text(), width[i], rightAligned[i], i == r.length - 1);
                if (r[i].colour() != null && style.enabled()) {
                    String padded = line.substring(start);
                    String text = r[i].text();
                    int at = padded.indexOf(text);
                    line.setLength(start);
                    line.append(padded, 0, at).append(style.paint(r[i].colour(), text)).append(padded.substring(at + text.length()));
                }
            }
            int end = line.length();
            while (end > 0 && line.charAt(end - 1) == ' ') {
                end--;
            }
            block.append(line, 0, end).append(System.lineSeparator());
            if (block.length() >= BLOCK) {
                out.print(block);
                block.setLength(0);
            }
        }
        out.print(block);
        out.flush();
    }

    /**
     * Journal text is written by tools, models and callers (a task id may come over MCP): control
     * characters (an ESC sequence in a message could rewrite the operator's terminal) and line
     * breaks become visible escapes, so one record stays one line.
     */
    static String clean(String s) {
        return s == null ? "-" : dev.effectful.core.log.PrintableText.escape(s);
    }

    private static void pad(StringBuilder sb, String text, int width, boolean right, boolean last) {
        int gap = width - text.length();
        if (right) {
            spaces(sb, gap).append(text);
        } else {
            sb.append(text);
            if (!last) {
                spaces(sb, gap);
            }
        }
        if (!last) {
            sb.append("  ");
        }
    }

    private static StringBuilder spaces(StringBuilder sb, int n) {
        for (int i = 0; i < n; i++) {
            sb.append(' ');
        }
        return sb;
    }
}
