package dev.effectful.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PrintableTextTest {

    @AfterEach
    void restoreLog() {
        AgentLog.configure(() -> new StderrSink(System.err, LogSink.Level.WARN), LogSink.Level.INFO);
    }

    @Test
    void everyControlCharacterBecomesAVisibleEscape() {
        assertThat(PrintableText.escape("plain id-1 é")).isSameAs("plain id-1 é");
        assertThat(PrintableText.escape("a\nb\rc\td")).isEqualTo("a\\nb\\rc\\td");
        assertThat(PrintableText.escape("\u001b[31m\u0000\u007f\u0085\u009f")).isEqualTo("\\u001b[31m\\u0000\\u007f\\u0085\\u009f");
        for (char c = 0; c < 0xa0; c++) {
            String escaped = PrintableText.escape("x" + c);
            if (c < 0x20 || c >= 0x7f) {
                assertThat(escaped.chars()).as("char %d", (int) c).allMatch(ch -> ch >= 0x20 && ch < 0x7f);
            } else {
                assertThat(escaped).isEqualTo("x" + c);
            }
        }
    }

    @Test
    void aFieldThatCouldPoseAsAnotherIsQuoted() {
        assertThat(PrintableText.field("t-1")).isEqualTo("t-1");
        assertThat(PrintableText.field(null)).isEqualTo("-");
        assertThat(PrintableText.field("t outcome=ok")).isEqualTo("\"t outcome=ok\"");
        assertThat(PrintableText.field("t\noutcome=ok")).isEqualTo("\"t\\noutcome=ok\"");
        assertThat(PrintableText.field("t\u001b")).doesNotContain("\u001b");
    }

    @Test
    void aForgedTaskIdCannotStartANewLogLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AgentLog.configure(() -> new StderrSink(out, LogSink.Level.DEBUG), LogSink.Level.DEBUG);
        AgentLog.info("effectful attempt 1 task=" + "t-1\noutcome=ok\u001b[2K" + " outcome=unknown");
        AgentLog.error("failed for \r\nforged", new IllegalStateException("cause\nforged line"));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text.lines()).hasSize(2).allMatch(l -> l.startsWith("effectful "));
        assertThat(text).doesNotContain("\u001b").contains("task=t-1\\noutcome=ok\\u001b[2K outcome=unknown");
    }
}
