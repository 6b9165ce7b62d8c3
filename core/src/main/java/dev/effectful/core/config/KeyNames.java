package dev.effectful.core.config;

import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.IntentStoreProviders;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static dev.effectful.core.config.EffectfulConfig.JOURNAL_DIR;
import static dev.effectful.core.config.EffectfulConfig.KEYS;
import static dev.effectful.core.config.EffectfulConfig.STORE;

/**
 * The names each key goes by: its full name, its short name in the agent argument ({@code sync} for
 * {@code effectful.sync}, {@code journal} for the directory) and its environment variable; and which names
 * are known. Apart from {@link EffectfulConfig} so that the record reads as the keys and their meaning, and
 * this class as the spelling rules every source shares.
 */
final class KeyNames {

    private KeyNames() {
    }

    /** Every key, the stores' included; the stores are looked up the first time a store key is met, not at every start. */
    static List<String> all() {
        return AllKeys.LIST;
    }

    /** The environment variable of every key, the stores' included. */
    static List<String> allEnv() {
        return AllKeys.ENV;
    }

    private static final class AllKeys {
        static final List<String> LIST = withStoreKeys();
        static final List<String> ENV = LIST.stream().map(KeyNames::envName).toList();

        private static List<String> withStoreKeys() {
            List<String> all = new ArrayList<>(KEYS);
            for (IntentStoreProvider p : IntentStoreProviders.all()) {
                p.keys().stream().filter(k -> !all.contains(k)).forEach(all::add);
            }
            return List.copyOf(all);
        }
    }

    private static final List<String> OWN_ENV = KEYS.stream().map(KeyNames::envName).toList();

    /** System properties of the command-line tool, not of the agent: known, never warned about. */
    static final Set<String> TOOL_PROPERTIES = Set.of("effectful.cli.stallMillis");

    static boolean known(String key) {
        return KEYS.contains(key) || key.startsWith(STORE + ".") && all().contains(key);
    }

    static boolean knownEnv(String name) {
        return OWN_ENV.contains(name) || name.startsWith("EFFECTFUL_STORE_") && allEnv().contains(name);
    }

    /** The full name of a key as the agent argument gives it: {@code journal}, short, or full. */
    static String fullName(String key) {
        if (key.equals("journal")) {
            return JOURNAL_DIR;
        }
        return key.startsWith("effectful.") ? key : "effectful." + key;
    }

    /** Every key as the agent argument may spell it, for the nearest-name suggestion. */
    static List<String> shortNames() {
        List<String> out = new ArrayList<>();
        out.add("journal");
        for (String k : all()) {
            out.add(k.substring("effectful.".length()));
        }
        return out;
    }

    static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }
}
