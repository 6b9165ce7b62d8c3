package dev.effectful.junit;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.runtime.engine.ApiWords;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.Phase;
import dev.effectful.core.reentry.ReentryRules;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit warns of a tool whose unknown outcome would be held for a person exactly when the engine would
 * hold it: both ask the kind's own rule, so no list of "at most once" kinds can drift from the table.
 */
class AuditAgreesWithEngineTest {

    /** A tool and its probe, declared every way by the annotations below. */
    static class Tools {
        public String charge(@IntentKey String order) {
            return order;
        }

        public String findCharge(String order) {
            return null;
        }
    }

    @ParameterizedTest
    @EnumSource(value = EffectKind.class, names = "READ", mode = EnumSource.Mode.EXCLUDE)
    void theAuditAsksForAProbeExactlyWhenTheEngineWouldHoldTheCall(EffectKind kind) throws Exception {
        Method m = Tools.class.getMethod("charge", String.class);
        for (boolean keyable : new boolean[] {false, true}) {
            for (String header : List.of("", "Idempotency-Key")) {
                for (String probe : List.of("", "findCharge")) {
                    EffectfulTool t = tool(Map.of("kind", kind, "keyable", keyable, "keyHeader", header, "probe", probe));
                    boolean auditWarns = ToolAudit.audit(Tools.class, m, t).stream()
                            .anyMatch(v -> v.failed() && v.happened().contains("without a probe"));
                    // a covered client sends the header's key, and the journal records it going out (key_sent)
                    IntentState unknown = new IntentState(Phase.UNKNOWN, 1, Effect.UNKNOWN, 0, -1, 0)
                            .withKeySent(!header.isEmpty());
                    Decision d = ReentryRules.decide(unknown, ApiWords.kind(kind), keyable, !probe.isEmpty(), "k", 10);
                    boolean engineHolds = d instanceof Decision.Refuse r && r.status() == OutcomeWord.UNKNOWN;
                    assertThat(auditWarns).as("%s keyable=%s header='%s' probe='%s': engine %s", kind, keyable, header,
                            probe, d).isEqualTo(engineHolds);
                }
            }
        }
    }

    /** A check declared by a superclass, where the engine finds it too. */
    static class Checked {
        void checkSent(String answer) {
        }
    }

    static class InheritsCheck extends Checked {
        public String charge(@IntentKey String order) {
            return order;
        }
    }

    @Test
    void aCheckAnInheritedMethodGivesIsFoundAsTheEngineFindsIt() throws Exception {
        EffectfulTool t = tool(Map.of("kind", EffectKind.IDEMPOTENT, "check", "checkSent"));
        Method inherits = InheritsCheck.class.getMethod("charge", String.class);
        assertThat(ToolAudit.audit(InheritsCheck.class, inherits, t)).noneMatch(v -> v.failed());
        Method without = Tools.class.getMethod("charge", String.class);
        assertThat(ToolAudit.audit(Tools.class, without, t))
                .anyMatch(v -> v.failed() && v.happened().contains("check = \"checkSent\" names no one-parameter method"));
    }

    /** An {@code @EffectfulTool} with the given values and the annotation's defaults for the rest. */
    private static EffectfulTool tool(Map<String, Object> values) {
        return (EffectfulTool) Proxy.newProxyInstance(EffectfulTool.class.getClassLoader(), new Class<?>[] {EffectfulTool.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "annotationType": return EffectfulTool.class;
                        case "toString": return "@EffectfulTool" + values;
                        case "hashCode": return System.identityHashCode(proxy);
                        case "equals": return proxy == args[0];
                        default: break;
                    }
                    if (values.containsKey(method.getName())) {
                        return values.get(method.getName());
                    }
                    if (method.getDefaultValue() != null) {
                        return method.getDefaultValue();
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
