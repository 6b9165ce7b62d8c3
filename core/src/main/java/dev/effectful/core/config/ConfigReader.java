package dev.effectful.core.config;

import dev.effectful.core.config.EffectfulConfig.Approvals;
import dev.effectful.core.config.EffectfulConfig.Failure;
import dev.effectful.core.config.EffectfulConfig.HeldMessage;
import dev.effectful.core.config.EffectfulConfig.Loaded;
import dev.effectful.core.config.EffectfulConfig.LogLevel;
import dev.effectful.core.config.EffectfulConfig.Problem;
import dev.effectful.core.config.EffectfulConfig.Store;
import dev.effectful.core.config.EffectfulConfig.Sync;
import dev.effectful.core.config.EffectfulConfig.TrustTask;
import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.IntentStoreProviders;
import dev.effectful.core.store.StoreKeys;
import dev.effectful.core.store.StoreSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import static dev.effectful.core.config.EffectfulConfig.APPROVAL;
import static dev.effectful.core.config.EffectfulConfig.APPROVAL_TIMEOUT;
import static dev.effectful.core.config.EffectfulConfig.APPROVAL_ELICIT;
import static dev.effectful.core.config.EffectfulConfig.CLASSIFIER_FILE;
import static dev.effectful.core.config.EffectfulConfig.DEFAULT_TASK_BUDGET;
import static dev.effectful.core.config.EffectfulConfig.FAILURE;
import static dev.effectful.core.config.EffectfulConfig.HELD_MESSAGE;
import static dev.effectful.core.config.EffectfulConfig.JOURNAL_DIR;
import static dev.effectful.core.config.EffectfulConfig.JOURNAL_RESERVE;
import static dev.effectful.core.config.EffectfulConfig.KEYS;
import static dev.effectful.core.config.EffectfulConfig.LOG_LEVEL;
import static dev.effectful.core.config.EffectfulConfig.MCP_HINTS;
import static dev.effectful.core.config.EffectfulConfig.MCP_TRUST_TASK;
import static dev.effectful.core.config.EffectfulConfig.RETENTION;
import static dev.effectful.core.config.EffectfulConfig.ROLL_CYCLE;
import static dev.effectful.core.config.EffectfulConfig.ROLL_CYCLES;
import static dev.effectful.core.config.EffectfulConfig.STORE;
import static dev.effectful.core.config.EffectfulConfig.SYNC;
import static dev.effectful.core.config.EffectfulConfig.TASK_BUDGET;
import static dev.effectful.core.config.KeyNames.envName;
import static dev.effectful.core.config.NearestWord.nearest;
import static dev.effectful.core.config.ValueParsers.parseBoolean;
import static dev.effectful.core.config.ValueParsers.parseBytes;
import static dev.effectful.core.config.ValueParsers.parseDuration;
import static dev.effectful.core.config.ValueParsers.parseEnum;
import static dev.effectful.core.config.ValueParsers.parseNames;
import static dev.effectful.core.config.ValueParsers.parseWord;

/**
 * Reads an {@link EffectfulConfig} from its sources in order of precedence (agent argument, system property,
 * environment variable, default), keeping every problem rather than stopping at the first: the agent
 * refuses effectful calls naming all of them at once, and warns of unknown {@code effectful.*} names.
 */
final class ConfigReader {

    private ConfigReader() {
    }

    /** Reads the configuration from the given agent argument, system properties and environment (tools, tests). */
    static Loaded read(String agentArgs, Properties sys, Map<String, String> env) {
        List<Problem> errors = new ArrayList<>();
        Map<String, String> args = AgentArgument.parseAgentArgs(agentArgs, errors);
        Loaded loaded = read(args, sys::getProperty, env, errors);
        List<String> warnings = new ArrayList<>(loaded.warnings());
        for (String name : new TreeSet<>(sys.stringPropertyNames())) {
            if (name.startsWith("effectful.") && !KeyNames.known(name) && !KeyNames.TOOL_PROPERTIES.contains(name)) {
                warnings.add("effectful: unknown system property -D" + name + " is ignored; did you mean -D"
                        + nearest(name, KeyNames.all()) + "?");
            }
        }
        for (String name : new TreeSet<>(env.keySet())) {
            if (name.startsWith("EFFECTFUL_") && !KeyNames.knownEnv(name)) {
                warnings.add("effectful: unknown environment variable " + name + " is ignored; did you mean "
                        + nearest(name, KeyNames.allEnv()) + "?");
            }
        }
        return new Loaded(loaded.config(), loaded.errors(), warnings, loaded.given());
    }

    static Loaded read(Map<String, String> agentArgs, UnaryOperator<String> sys, Map<String, String> env,
                               List<Problem> errors) {
        Source src = new Source(agentArgs, sys, env);
        Values v = new Values(src, errors);
        Path dir = v.get(JOURNAL_DIR, Path::of, Path.of("./effectful-journal")).toAbsolutePath().normalize();
        EffectfulConfig config = new EffectfulConfig(
                dir,
                v.get(SYNC, s -> parseEnum(Sync.class, SYNC, s), Sync.NONE),
                v.get(RETENTION, s -> parseDuration(RETENTION, s), Duration.ofDays(7)),
                v.get(FAILURE, s -> parseEnum(Failure.class, FAILURE, s), Failure.EXCEPTION),
                src.get(CLASSIFIER_FILE).map(s -> v.get(CLASSIFIER_FILE, Path::of, null)),
                v.get(LOG_LEVEL, s -> parseEnum(LogLevel.class, LOG_LEVEL, s), LogLevel.INFO),
                v.get(ROLL_CYCLE, s -> parseWord(ROLL_CYCLE, s, ROLL_CYCLES), "daily"),
                v.get(JOURNAL_RESERVE, s -> parseBytes(JOURNAL_RESERVE, s), 16L << 20),
                store(src, v),
                v.get(TASK_BUDGET, s -> parseDuration(TASK_BUDGET, s), DEFAULT_TASK_BUDGET),
                v.get(MCP_TRUST_TASK, s -> parseEnum(TrustTask.class, MCP_TRUST_TASK, s), TrustTask.LOOPBACK),
                v.get(MCP_HINTS, s -> parseBoolean(MCP_HINTS, s), true),
                new Approvals(v.get(APPROVAL, s -> parseNames(APPROVAL, s), Set.of()),
                        v.get(APPROVAL_TIMEOUT, s -> parseDuration(APPROVAL_TIMEOUT, s), Approvals.NONE.timeout()),
                        v.get(APPROVAL_ELICIT, s -> parseBoolean(APPROVAL_ELICIT, s), true)),
                v.get(HELD_MESSAGE, s -> parseEnum(HeldMessage.class, HELD_MESSAGE, s), HeldMessage.SHORT));
        Set<String> given = new HashSet<>();
        for (String key : config.store().isLocal() ? KEYS : KeyNames.all()) {
            src.get(key).ifPresent(x -> given.add(key));
        }
        return new Loaded(config, errors, List.of(), given);
    }

    /** {@code effectful.store}: local, or a store in this build, which reads and checks its own keys. */
    private static Store store(Source src, Values v) {
        String kind = v.get(STORE, s -> s.toLowerCase(Locale.ROOT), Store.LOCAL.kind());
        if (kind.equals(Store.LOCAL.kind())) {
            return Store.LOCAL;
        }
        Optional<IntentStoreProvider> provider = IntentStoreProviders.find(kind);
        if (provider.isEmpty()) {
            List<String> known = new ArrayList<>(List.of(Store.LOCAL.kind()));
            IntentStoreProviders.all().forEach(p -> known.add(p.kind()));
            v.error(STORE, STORE + "=" + kind + " is not a store in this build (one of: " + String.join(", ", known)
                    + "; did you mean " + nearest(kind, known) + "?)");
            return Store.LOCAL;
        }
        int before = v.errors().size();
        StoreSettings settings;
        try {
            settings = provider.get().configure(keysFor(v));
        } catch (RuntimeException e) {
            // a store's own bug must fail closed like any other configuration error, never escape premain
            v.error(STORE, "the " + kind + " store could not read its settings: " + e);
            return Store.LOCAL;
        }
        return v.errors().size() > before || settings == null ? Store.LOCAL : new Store(kind, settings);
    }

    /** What a store reads its keys through: the same sources, the same rules, errors with their origin. */
    private static StoreKeys keysFor(Values v) {
        return new StoreKeys() {
            @Override
            public Optional<String> get(String key) {
                return Optional.ofNullable(v.get(key, x -> x, null));
            }

            @Override
            public Duration duration(String key, Duration fallback) {
                return v.get(key, x -> parseDuration(key, x), fallback);
            }

            @Override
            public void error(String key, String message) {
                v.error(key, message);
            }
        };
    }

    /** Parses values, turning a bad one into a {@link Problem} (and its default) instead of an exception. */
    private record Values(Source src, List<Problem> errors) {
        <T> T get(String key, Function<String, T> parse, T fallback) {
            Optional<String> raw = src.get(key);
            if (raw.isEmpty()) {
                if (src.givenEmpty(key)) {
                    // -Dkey= or KEY= (an unset $VAR in a container spec) is a mistake, not "use the default":
                    // a default journal directory would silently start a new history elsewhere
                    errors.add(new Problem(key, key + " is set but empty; give it a value or remove the setting ["
                            + src.origin(key) + "]"));
                }
                return fallback;
            }
            try {
                return parse.apply(raw.get().trim());
            } catch (IllegalArgumentException e) {
                String m = e.getMessage() == null || !e.getMessage().startsWith(key)
                        ? key + "=" + raw.get() + " is not valid (" + e.getMessage() + ")" : e.getMessage();
                errors.add(new Problem(key, m + " [" + src.origin(key) + "]"));
                return fallback;
            }
        }

        void error(String key, String message) {
            errors.add(new Problem(key, message + " [" + src.origin(key) + "]"));
        }
    }

    private record Source(Map<String, String> agentArgs, UnaryOperator<String> sys, Map<String, String> env) {
        Optional<String> get(String key) {
            String v = agentArgs.get(key);
            if (v == null) {
                v = sys.apply(key);
            }
            if (v == null) {
                v = env.get(envName(key));
            }
            return Optional.ofNullable(v).filter(s -> !s.isBlank());
        }

        /** True when {@code key} is present in a system property or the environment, with a blank value. */
        boolean givenEmpty(String key) {
            if (agentArgs.containsKey(key)) {
                return false; // the agent argument's own parser reports "has no value"
            }
            String v = sys.apply(key);
            if (v == null) {
                v = env.get(envName(key));
            }
            return v != null && v.isBlank();
        }

        /** Where the value of {@code key} came from, for the message that names it. */
        String origin(String key) {
            if (agentArgs.containsKey(key)) {
                return "from the agent argument";
            }
            return sys.apply(key) != null ? "from -D" + key : "from the environment variable " + envName(key);
        }
    }
}
