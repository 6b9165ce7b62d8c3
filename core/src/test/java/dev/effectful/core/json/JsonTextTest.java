package dev.effectful.core.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JsonText} is the journal's one JSON escaper: what it writes for a string is exactly what
 * Jackson writes, for every char, so a text searched for in its escaped form is found in anything
 * Jackson wrote ({@code \b} and {@code \f}, not {@code \u0008}; {@code \u001F} in upper case).
 */
class JsonTextTest {

    private static final ObjectMapper JACKSON = JsonMappers.shared();

    @Test
    void everyCharIsWrittenAsJacksonWritesIt() throws Exception {
        for (int c = 0; c <= 0xFFFF; c++) {
            String s = "a" + (char) c + "b";
            String jackson = JACKSON.writeValueAsString(s);
            assertThat(JsonText.appendQuoted(new StringBuilder(), s).toString()).as("U+%04X", c).isEqualTo(jackson);
            assertThat(JsonText.escaped(s)).as("U+%04X", c).isEqualTo(jackson.substring(1, jackson.length() - 1));
        }
    }

    @Test
    void theEscapesJacksonChoosesAreTheOnesWritten() throws Exception {
        assertThat(JsonText.escaped("a\bb\fc")).isEqualTo("a\\bb\\fc");
        assertThat(JsonText.escaped("\u001f\u0001")).isEqualTo("\\u001F\\u0001");
        assertThat(JsonText.escaped("\"\\\n\r\t")).isEqualTo("\\\"\\\\\\n\\r\\t");
        // not escaped by Jackson's default generator, so not by the journal either
        assertThat(JsonText.escaped("line\u2028sep\u2029")).isEqualTo("line\u2028sep\u2029");
        String pair = "x\uD83D\uDE00y";
        assertThat(JsonText.escaped(pair)).isEqualTo(pair).isEqualTo(unquote(JACKSON.writeValueAsString(pair)));
        String lone = "x\uD83Dy\uDE00";
        assertThat(JsonText.escaped(lone)).isEqualTo(lone).isEqualTo(unquote(JACKSON.writeValueAsString(lone)));
        String plain = "nothing to escape";
        assertThat(JsonText.escaped(plain)).isSameAs(plain);
    }

    private static String unquote(String json) {
        return json.substring(1, json.length() - 1);
    }
}
