package dev.effectful.runtime.tool;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which annotation a rewritten method is guarded with, and where its parameter annotations come from. */
class DeclaredToolTest {

    interface Port<T> {
        @EffectfulTool(kind = EffectKind.MONEY, name = "pay")
        String pay(@IntentKey T order, @Redact String card);

        String unannotated(String x);
    }

    static class Adapter implements Port<String> {
        @Override
        public String pay(String order, String card) {
            return "paid";
        }

        @Override
        public String unannotated(String x) {
            return x;
        }

        /** An overload, not an override: not a tool. */
        public String pay(Integer order, String card) {
            return "other";
        }

        public String probe(String order, String card) {
            return null;
        }
    }

    static class Sub extends Adapter {
        @Override
        @EffectfulTool(kind = EffectKind.SEND, name = "own")
        public String pay(String order, String card) {
            return "own";
        }
    }

    static class SubSub extends Sub {
        @Override
        public String pay(String order, String card) {
            return "nearest";
        }
    }

    @Test
    void anImplementationOfAGenericInterfaceMethodGetsItsAnnotationAndParameters() throws Exception {
        var m = Adapter.class.getMethod("pay", String.class, String.class);
        DeclaredTool d = DeclaredTool.of(m).orElseThrow();
        assertThat(d.spec().name()).isEqualTo("pay");
        assertThat(d.inherited(m)).isTrue();
        ToolMethod tm = ToolMethods.describe(m, Adapter.class);
        assertThat(tm.kind()).isEqualTo(EffectKind.MONEY);
        assertThat(tm.hasIntentKey()).isTrue();
        assertThat(tm.params()[0].intentKey()).isTrue();
        assertThat(tm.params()[1].redact()).isTrue();
        assertThat(tm.method()).isEqualTo(m);
    }

    @Test
    void unannotatedMethodsAndOverloadsAreNotTools() throws Exception {
        assertThat(DeclaredTool.of(Adapter.class.getMethod("unannotated", String.class))).isEmpty();
        assertThat(DeclaredTool.of(Adapter.class.getMethod("pay", Integer.class, String.class))).isEmpty();
    }

    @Test
    void theMethodsOwnAnnotationWinsAndTheNearestDeclarationOtherwise() throws Exception {
        assertThat(DeclaredTool.of(Sub.class.getMethod("pay", String.class, String.class)).orElseThrow().spec().name())
                .isEqualTo("own");
        assertThat(DeclaredTool.of(SubSub.class.getMethod("pay", String.class, String.class)).orElseThrow().spec().name())
                .isEqualTo("own");
    }

    @Test
    void annotationOfReadsTheInheritedKind() {
        assertThat(ToolMethods.annotationOf(Adapter.class, "pay(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;"))
                .hasValueSatisfying(t -> assertThat(t.kind()).isEqualTo(EffectKind.MONEY));
        assertThat(ToolMethods.annotationOf(Adapter.class, "nope()V")).isEmpty();
    }
}
