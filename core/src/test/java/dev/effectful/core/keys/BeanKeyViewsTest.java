package dev.effectful.core.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.effectful.core.json.CanonicalJson;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.StderrSink;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BeanKeyViewsTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** The id is private with no getter: the canonical JSON sees only the currency. */
    static class HiddenId {
        private final String id;
        public final String currency;

        HiddenId(String id, String currency) {
            this.id = id;
            this.currency = currency;
        }
    }

    /** Every field is a property. */
    static final class Visible {
        private final String id;

        Visible(String id) {
            this.id = id;
        }

        public String getId() {
            return id;
        }
    }

    /**
     * The same hidden id (inherited), for values whose id holds nothing, which is no reason to warn; a type
     * of its own, as a type is warned about once and then not looked at again.
     */
    static final class HiddenEmpty extends HiddenId {
        HiddenEmpty(String id, String currency) {
            super(id, currency);
        }
    }

    @BeforeEach
    void captureLog() {
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AgentLog.configure(() -> new StderrSink(out, LogSink.Level.DEBUG), LogSink.Level.DEBUG);
    }

    @AfterEach
    void restoreLog() {
        AgentLog.configure(() -> new StderrSink(System.err, LogSink.Level.WARN), LogSink.Level.INFO);
    }

    @Test
    void aDroppedFieldWithAValueIsWarnedAboutOncePerType() throws Exception {
        // the hole: two different orders, one canonical view, one key
        assertThat(CanonicalJson.of(new HiddenId("o-1", "EUR"))).isEqualTo(CanonicalJson.of(new HiddenId("o-2", "EUR")));
        BeanKeyViews.check(new HiddenId("o-1", "EUR"), "order");
        BeanKeyViews.check(new HiddenId("o-2", "EUR"), "order");
        String log = bytes.toString(StandardCharsets.UTF_8);
        assertThat(log.lines()).hasSize(1);
        assertThat(log).contains("@IntentKey parameter 'order'").contains(HiddenId.class.getName()).contains("'id'")
                .doesNotContain("o-1");
    }

    @Test
    void aFullViewAnEmptyHiddenFieldAndPlainValuesAreNot() {
        BeanKeyViews.check(new Visible("o-1"), "order");
        BeanKeyViews.check(new HiddenEmpty("", "EUR"), "order");
        BeanKeyViews.check(new HiddenEmpty(null, "EUR"), "order");
        BeanKeyViews.check("o-1", "order");
        BeanKeyViews.check(java.util.List.of("a"), "order");
        BeanKeyViews.check(java.util.Map.of("a", 1), "order");
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
