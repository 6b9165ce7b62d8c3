package dev.effectful.core.config;

import dev.effectful.core.journal.ScaledTries;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration over generated input: any agent argument string, system properties and environment give
 * either a valid configuration or errors, each naming the key (or "agent argument") and saying what is
 * wrong, and nothing is thrown past {@link EffectfulConfig#read}; {@link EffectfulConfig#load} throws only
 * its documented {@link IllegalArgumentException}. The agent reads its configuration in premain, inside
 * the user's JVM: an exception there would stop the application from starting, where the contract is to
 * start and refuse effectful calls (fail closed) with one line naming what to fix. The inputs mix every
 * known key with valid, invalid and hostile values (separators {@code , = ;}, Unicode, empty, huge numbers),
 * misspelt keys and malformed argument strings.
 */
@AddLifecycleHook(ScaledTries.class)
class EffectfulConfigProperties {

    private static Arbitrary<String> value() {
        return Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of("none", "intent", "batch", "exception", "return", "7d", "30s", "PT5M", "0",
                        "-1", "99999999999999999999d", "16m", "1g", "9999999999g", "daily", "hourly", "local", "postgres",
                        "loopback", "always", "never", "short", "operator", "a,b", "tool_a", "warn", "DEBUG", "1h",
                        "./j", "/tmp/x", "")),
                Tuple.of(2, Arbitraries.strings().withChars("abc019-_.:/ ,=;|\\\"'\u00e9\u65e5\uD83D\uDE00\n\t").ofMaxLength(20)),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(12)));
    }

    private static Arbitrary<String> key() {
        Arbitrary<String> known = Arbitraries.of(EffectfulConfig.allKeys());
        return Arbitraries.frequencyOf(
                Tuple.of(6, known),
                Tuple.of(1, known.map(k -> k + "x")),
                Tuple.of(1, known.map(k -> k.toUpperCase(Locale.ROOT))),
                Tuple.of(1, Arbitraries.strings().withChars("effectful.abcz_=,").ofMaxLength(20)));
    }

    record Input(String agentArgs, Map<String, String> sys, Map<String, String> env) {
    }

    @Provide
    Arbitrary<Input> inputs() {
        Arbitrary<String> pair = Combinators.combine(key(), value(), Arbitraries.of("=", "=", "=", "", "==", " = "))
                .as((k, v, eq) -> k + eq + v);
        Arbitrary<String> args = Arbitraries.frequencyOf(
                Tuple.of(1, Arbitraries.just((String) null)),
                Tuple.of(4, pair.list().ofMaxSize(5).map(l -> String.join(",", l))),
                Tuple.of(1, Arbitraries.strings().ofMaxLength(40)),
                Tuple.of(1, Arbitraries.strings().withChars("=,a.").ofMaxLength(12)));
        Arbitrary<Map<String, String>> sys = Arbitraries.maps(key(), value()).ofMaxSize(3);
        Arbitrary<Map<String, String>> env = Arbitraries.maps(key().map(k -> k.toUpperCase(Locale.ROOT).replace('.', '_')),
                value()).ofMaxSize(3);
        return Combinators.combine(args, sys, env).as(Input::new);
    }

    @Property(tries = 2000)
    void anyInputGivesAConfigOrNamedErrors(@ForAll("inputs") Input in) {
        Properties p = new Properties();
        p.putAll(in.sys());
        EffectfulConfig.Loaded loaded = EffectfulConfig.read(in.agentArgs(), p, new HashMap<>(in.env()));
        assertThat(loaded).isNotNull();
        assertThat(loaded.config()).as("the values, invalid ones at their default").isNotNull();
        Set<String> named = new HashSet<>(EffectfulConfig.allKeys());
        named.add("agent argument");
        for (EffectfulConfig.Problem problem : loaded.errors()) {
            assertThat(problem.message()).as("%s", problem).isNotBlank();
            // a key of ours, "agent argument", or the name the input gave (a misspelt key)
            boolean given = (in.agentArgs() != null && in.agentArgs().contains(problem.key()))
                    || in.sys().containsKey(problem.key()) || in.env().containsKey(problem.key());
            assertThat(named.contains(problem.key()) || given).as("%s from %s", problem, in).isTrue();
        }
        if (!loaded.valid()) {
            assertThat(loaded.errorSummary()).startsWith("effectful configuration error: ");
        }
    }

    @Property(tries = 1500)
    void loadThrowsOnlyItsDocumentedException(@ForAll("inputs") Input in) {
        // load reads this JVM's own system properties and environment; the argument string is what varies
        try {
            assertThat(EffectfulConfig.load(in.agentArgs())).isNotNull();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    /** A malformed argument string is named as such, never taken for a key. */
    @Property(tries = 500)
    void aPairWithoutEqualsIsAnError(@ForAll("words") String word) {
        EffectfulConfig.Loaded loaded = EffectfulConfig.read("effectful.sync=none," + word, new Properties(), Map.of());
        assertThat(loaded.valid()).isFalse();
        List<String> keys = new ArrayList<>();
        loaded.errors().forEach(e -> keys.add(e.key()));
        assertThat(keys).isNotEmpty();
    }

    @Provide
    Arbitrary<String> words() {
        return Arbitraries.strings().withChars("abcdefghijklmnop._").ofMinLength(1).ofMaxLength(15);
    }
}
