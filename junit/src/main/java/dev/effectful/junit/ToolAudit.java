package dev.effectful.junit;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Items;
import dev.effectful.runtime.engine.ApiWords;
import dev.effectful.core.journal.Kind;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The static audit of a tool class: what can be seen without calling anything. Effectful tools
 * without {@code @IntentKey}, SEND/MONEY/DESTRUCTIVE tools nothing can settle after a crash (no probe,
 * no key header), probes and checks that name no usable method, and free text in the key.
 */
final class ToolAudit {

    /** Parameter names that carry prose a model rephrases on a retry. */
    private static final Set<String> FREE_TEXT = Set.of("text", "body", "message", "msg", "subject", "content",
            "note", "notes", "description", "comment", "prompt", "reason", "title", "summary", "greeting", "caption");

    private ToolAudit() {
    }

    static List<Verdict> audit(Class<?> type) {
        List<Verdict> out = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            Method[] methods = c.getDeclaredMethods();
            Arrays.sort(methods, (a, b) -> a.getName().compareTo(b.getName()));
            for (Method m : methods) {
                EffectfulTool t = m.getAnnotation(EffectfulTool.class);
                if (t != null && !m.isBridge()) {
                    out.addAll(audit(c, m, t));
                }
            }
        }
        return out;
    }

    static List<Verdict> audit(Class<?> owner, Method m, EffectfulTool t) {
        List<Verdict> out = new ArrayList<>();
        String tool = name(m);
        EffectKind kind = t.kind();
        boolean batch = Arrays.stream(m.getParameters()).anyMatch(p -> p.isAnnotationPresent(Items.class));
        List<Parameter> keyed = Arrays.stream(m.getParameters()).filter(p -> p.isAnnotationPresent(IntentKey.class))
                .toList();
        if (!Kind.alwaysRuns(kind.name()) && keyed.isEmpty()) {
            out.add(Verdict.fail(Check.AUDIT, tool, "no parameter is marked @IntentKey, so each call in a task is a new"
                    + " intent numbered by its order; a retry that comes after another call is not recognised",
                    "mark the parameter(s) that say what is acted on (an order id, a recipient) with @IntentKey"));
        }
        for (Parameter p : keyed) {
            if (p.getType() == String.class && FREE_TEXT.contains(p.getName().toLowerCase(Locale.ROOT))) {
                out.add(Verdict.fail(Check.AUDIT, tool, "@IntentKey is on '" + p.getName() + "', free text a model"
                        + " rephrases when it retries, so the retry gets a new key and runs again",
                        "remove @IntentKey from '" + p.getName() + "'; key on what identifies the act (an order id,"
                                + " a recipient, a thread id)"));
            }
        }
        // the engine's own rule: an unknown outcome re-runs when a repeat is harmless or carries a key the receiver
        // deduplicates on (keyable, or a key header seen going out); otherwise only a probe spares a person
        Kind journalKind = ApiWords.kind(kind);
        boolean needsSettling = !journalKind.runsAgainAfterUnknown(t.keyable() || !t.keyHeader().isEmpty());
        if (needsSettling && t.probe().isEmpty()) {
            out.add(Verdict.fail(Check.AUDIT, tool, kind + " tool without a probe or keyHeader"
                    + ": after a crash or a timeout nothing can tell whether the effect landed, so the next call is"
                    + " held for a person", "add probe = \"find" + capital(m.getName()) + "\" naming a method with the"
                    + " same parameters that looks the effect up at the receiver (null / empty Optional / false when"
                    + " absent), or keyHeader = \"Idempotency-Key\" when the receiver dedups on it"));
        }
        if (!t.probe().isEmpty() && find(owner, t.probe(), m.getParameterTypes()) == null) {
            out.add(Verdict.fail(Check.AUDIT, tool, "probe = \"" + t.probe() + "\" names no method of " + owner.getSimpleName()
                    + " with the parameters " + params(m), "declare " + t.probe() + "(" + params(m) + ") in "
                    + owner.getSimpleName() + ", returning the tool's type"));
        }
        if (!t.check().isEmpty() && !hasCheck(owner, t.check())) {
            out.add(Verdict.fail(Check.AUDIT, tool, "check = \"" + t.check() + "\" names no one-parameter method of "
                    + owner.getSimpleName(), "declare " + t.check() + "(" + m.getReturnType().getSimpleName()
                    + " returned) that throws when the returned value reports a failure"));
        }
        if (out.isEmpty()) {
            out.add(Verdict.pass(Check.AUDIT, tool, kind + (batch ? " batch" : "") + " tool"
                    + (keyed.isEmpty() ? "" : ", keyed by " + keyed.stream().map(Parameter::getName).toList())
                    + (t.probe().isEmpty() ? "" : ", probe " + t.probe())
                    + (t.check().isEmpty() ? "" : ", check " + t.check())));
        }
        return out;
    }

    /** A one-parameter method {@code name} in {@code owner} or a superclass, where the engine looks for it too. */
    static boolean hasCheck(Class<?> owner, String name) {
        for (Class<?> c = owner; c != null && c != Object.class; c = c.getSuperclass()) {
            if (Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.getName().equals(name) && m.getParameterCount() == 1)) {
                return true;
            }
        }
        return false;
    }

    static Method find(Class<?> owner, String name, Class<?>[] params) {
        for (Class<?> c = owner; c != null; c = c.getSuperclass()) {
            try {
                return c.getDeclaredMethod(name, params);
            } catch (NoSuchMethodException e) {
                // further up
            }
        }
        return null;
    }

    static String name(Method m) {
        return m.getDeclaringClass().getSimpleName() + "." + m.getName();
    }

    private static String params(Method m) {
        return String.join(", ", Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList());
    }

    private static String capital(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
