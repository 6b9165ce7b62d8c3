package dev.effectful.core.journal;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ResultShapeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    enum Color { RED }

    record Receipt(String id) {
    }

    @SuppressWarnings("unused")
    static List<String> listOf() {
        return null;
    }

    @Test
    void aReturnTypeHasTheShapeItsJsonTakes() throws Exception {
        assertThat(ResultShape.of(void.class)).isEqualTo(ResultShape.NONE);
        assertThat(ResultShape.of(String.class)).isEqualTo(ResultShape.STRING);
        assertThat(ResultShape.of(Color.class)).isEqualTo(ResultShape.STRING);
        assertThat(ResultShape.of(int.class)).isEqualTo(ResultShape.NUMBER);
        assertThat(ResultShape.of(Long.class)).isEqualTo(ResultShape.NUMBER);
        assertThat(ResultShape.of(BigDecimal.class)).isEqualTo(ResultShape.NUMBER);
        assertThat(ResultShape.of(boolean.class)).isEqualTo(ResultShape.BOOLEAN);
        assertThat(ResultShape.of(ResultShapeTest.class.getDeclaredMethod("listOf").getGenericReturnType()))
                .isEqualTo(ResultShape.ARRAY);
        assertThat(ResultShape.of(String[].class)).isEqualTo(ResultShape.ARRAY);
        assertThat(ResultShape.of(Map.class)).isEqualTo(ResultShape.MAP);
        assertThat(ResultShape.of(Receipt.class)).isEqualTo(ResultShape.OTHER);
        assertThat(ResultShape.of(Optional.class)).isEqualTo(ResultShape.OTHER);
    }

    @Test
    void onlyWhatCanNeverDecodeIsAMisfit() throws Exception {
        assertThat(ResultShape.STRING.misfit(JSON.readTree("{\"a\":1}"))).contains("a string");
        assertThat(ResultShape.STRING.misfit(JSON.readTree("[1]"))).contains("a JSON array");
        assertThat(ResultShape.STRING.misfit(JSON.readTree("\"r-1\""))).isNull();
        assertThat(ResultShape.STRING.misfit(JSON.readTree("42"))).as("Jackson makes \"42\" of it").isNull();
        assertThat(ResultShape.NUMBER.misfit(JSON.readTree("\"abc\""))).contains("a number");
        assertThat(ResultShape.NUMBER.misfit(JSON.readTree("\"42\""))).isNull();
        assertThat(ResultShape.NUMBER.misfit(JSON.readTree("true"))).isNotNull();
        assertThat(ResultShape.BOOLEAN.misfit(JSON.readTree("\"yes\""))).isNotNull();
        assertThat(ResultShape.ARRAY.misfit(JSON.readTree("\"a\""))).isNotNull();
        assertThat(ResultShape.MAP.misfit(JSON.readTree("[]"))).isNotNull();
        assertThat(ResultShape.OTHER.misfit(JSON.readTree("\"anything\""))).isNull();
        assertThat(ResultShape.NONE.misfit(JSON.readTree("1"))).contains("void");
        assertThat(ResultShape.STRING.misfit(JSON.readTree("null"))).isNull();
    }

    @Test
    void theJournalDirectoryKeepsEachToolsShapeOwnerOnlyAndAConflictIsNotChecked(@TempDir Path dir) throws Exception {
        assertThat(ResultShapes.read(dir)).isEmpty();
        ResultShapes.remember(dir, "send_email", ResultShape.STRING);
        ResultShapes.remember(dir, "count", ResultShape.NUMBER);
        ResultShapes.remember(dir, "send_email", ResultShape.STRING);
        assertThat(ResultShapes.read(dir)).containsEntry("send_email", ResultShape.STRING).containsEntry("count", ResultShape.NUMBER);
        ResultShapes.remember(dir, "count", ResultShape.STRING); // another class's tool of the same name
        assertThat(ResultShapes.read(dir)).containsEntry("count", ResultShape.OTHER);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(ResultShapes.FILE_NAME))))
                .isEqualTo("rw-------");
        assertThat(JournalFiles.isJournalFile(ResultShapes.FILE_NAME)).isTrue();
    }
}
