package dev.effectful.runtime.tool;

import dev.effectful.IntentKey;
import dev.effectful.Slot;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.core.values.ParamSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The key of a tool whose one input object carries {@code @IntentKey}/{@code @Slot} on its components. */
class ComponentKeysTest {

    record Refund(@IntentKey String orderId, String reason) {
    }

    static class Base {
        @IntentKey
        String tenant = "acme";
    }

    static class Reminder extends Base {
        @IntentKey
        private final String customer;
        @Slot
        private final int number;
        private final String text;
        static String ignoredStatic = "x";

        Reminder(String customer, int number, String text) {
            this.customer = customer;
            this.number = number;
            this.text = text;
        }
    }

    static final class Plain {
        String anything = "a";
    }

    @TempDir
    Path dir;
    ArgsRenderer renderer;

    @BeforeEach
    void setUp() throws Exception {
        renderer = new ArgsRenderer(Fingerprinter.forJournal(dir));
    }

    private static ParamSpec[] one(String name) {
        return new ParamSpec[] {new ParamSpec(name, false, false, false)};
    }

    @Test
    void aRecordsAnnotatedComponentIsTheTargetAndFreeTextIsNot() throws Exception {
        ArgsRenderer.KeyParts first = ComponentKeys.keyParts(renderer, null, new Object[] {new Refund("ord-1", "damaged")}, one("input"));
        ArgsRenderer.KeyParts rephrased = ComponentKeys.keyParts(renderer, null, new Object[] {new Refund("ord-1", "It arrived broken")}, one("input"));
        assertThat(first).isEqualTo(rephrased).isEqualTo(new ArgsRenderer.KeyParts("[\"ord-1\"]", "", true));
        assertThat(ComponentKeys.keyParts(renderer, null, new Object[] {new Refund("ord-2", "damaged")}, one("input")).target())
                .isEqualTo("[\"ord-2\"]");
    }

    @Test
    void aClassesFieldsCountInDeclarationOrderSuperclassFirstWithItsSlot() throws Exception {
        ArgsRenderer.KeyParts parts = ComponentKeys.keyParts(renderer, null, new Object[] {new Reminder("ann", 2, "hi")}, one("input"));
        assertThat(parts).isEqualTo(new ArgsRenderer.KeyParts("[\"acme\",\"ann\"]", "2", true));
    }

    @Test
    void aToolWithoutParametersIsKeyedByItsOwnFields() throws Exception {
        assertThat(ComponentKeys.keyParts(renderer, new Reminder("bob", 1, "x"), new Object[0], new ParamSpec[0]))
                .isEqualTo(new ArgsRenderer.KeyParts("[\"acme\",\"bob\"]", "1", true));
        assertThat(ComponentKeys.declaredOn(Reminder.class)).isTrue();
        assertThat(ComponentKeys.declaredOn(Plain.class)).isFalse();
        assertThat(ComponentKeys.declaredOn(String.class)).isFalse();
    }

    @Test
    void annotatedParametersWinAndUnannotatedObjectsKeepTheOrdinalKey() throws Exception {
        ParamSpec[] keyed = {new ParamSpec("order", true, false, false), new ParamSpec("input", false, false, false)};
        assertThat(ComponentKeys.keyParts(renderer, null, new Object[] {"o-9", new Refund("ord-1", "x")}, keyed).target()).isEqualTo("[\"o-9\"]");
        assertThat(ComponentKeys.keyParts(renderer, null, new Object[] {new Plain()}, one("input")))
                .isEqualTo(new ArgsRenderer.KeyParts("[]", "", false));
        assertThat(ComponentKeys.keyParts(renderer, null, new Object[] {null}, one("input")))
                .isEqualTo(new ArgsRenderer.KeyParts("[]", "", false));
    }
}
