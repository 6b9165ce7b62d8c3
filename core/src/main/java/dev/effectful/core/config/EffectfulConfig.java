package dev.effectful.core.config;

import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.IntentStoreProviders;
import dev.effectful.core.store.StoreContext;
import dev.effectful.core.store.StoreKeys;
import dev.effectful.core.store.StoreSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Every configuration key of the agent, in one place (docs/CONFIGURATION.md mirrors this class).
 *
 * <p>Each key is read, in order of precedence, from the agent argument string
 * ({@code -javaagent:effectful-agent.jar=journal=/var/effectful,sync=intent}), a system property,
 * an environment variable (upper case, dots as underscores), then the default.
 *
 * <p>Fail closed: an invalid value (from any source), an unknown key in the agent argument, or a
 * malformed agent argument is an {@link Loaded#errors() error}; the agent then refuses every
 * effectful call (permanent, effect no) naming it, and READ calls run. An unknown
 * {@code effectful.*} system property or {@code EFFECTFUL_*} environment variable is a
 * {@link Loaded#warnings() warning} naming the nearest known key.
 */
public record EffectfulConfig(Path journalDir, Sync sync, Duration retention, Failure failure,
                              Optional<Path> classifierFile, LogLevel logLevel, String rollCycle,
                              long journalReserveBytes, Store store, Duration taskBudget, TrustTask mcpTrustTask,
                              boolean mcpHints, Approvals approvals, HeldMessage heldMessage) {

    /** The default of {@link #TASK_BUDGET}. */
    public static final Duration DEFAULT_TASK_BUDGET = Duration.ofMinutes(5);

    /**
     * A configuration made in code (the test kit, benchmarks, tests): every key at the default the agent
     * would use, then the ones set on the builder. The agent itself reads its configuration with {@link #load}.
     */
    public static Builder builder(Path journalDir) {
        return new Builder(journalDir);
    }

    /** Builds an {@link EffectfulConfig}; each setter names the key it stands for. */
    public static final class Builder {
        private final Path journalDir;
        private Sync sync = Sync.NONE;
        private Duration retention = Duration.ofDays(7);
        private Failure failure = Failure.EXCEPTION;
        private Optional<Path> classifierFile = Optional.empty();
        private LogLevel logLevel = LogLevel.INFO;
        private String rollCycle = "daily";
        private long journalReserveBytes = 16L << 20;
        private Store store = Store.LOCAL;
        private Duration taskBudget = DEFAULT_TASK_BUDGET;
        private TrustTask mcpTrustTask = TrustTask.LOOPBACK;
        private boolean mcpHints = true;
        private HeldMessage heldMessage = HeldMessage.SHORT;
        private Approvals approvals = Approvals.NONE;

        private Builder(Path journalDir) {
            this.journalDir = journalDir;
        }

        /** {@link #SYNC}. */
        public Builder sync(Sync v) {
            sync = v;
            return this;
        }

        /** {@link #RETENTION}. */
        public Builder retention(Duration v) {
            retention = v;
            return this;
        }

        /** {@link #FAILURE}. */
        public Builder failure(Failure v) {
            failure = v;
            return this;
        }

        /** {@link #CLASSIFIER_FILE}. */
        public Builder classifierFile(Path v) {
            classifierFile = Optional.ofNullable(v);
            return this;
        }

        /** {@link #LOG_LEVEL}. */
        public Builder logLevel(LogLevel v) {
            logLevel = v;
            return this;
        }

        /** {@link #ROLL_CYCLE}. */
        public Builder rollCycle(String v) {
            rollCycle = v;
            return this;
        }

        /** {@link #JOURNAL_RESERVE}, in bytes. */
        public Builder journalReserveBytes(long v) {
            journalReserveBytes = v;
            return this;
        }

        /** {@link #STORE} and its settings. */
        public Builder store(Store v) {
            store = v;
            return this;
        }

        /** {@link #TASK_BUDGET}. */
        public Builder taskBudget(Duration v) {
            taskBudget = v;
            return this;
        }

        /** {@link #MCP_TRUST_TASK}. */
        public Builder mcpTrustTask(TrustTask v) {
            mcpTrustTask = v;
            return this;
        }

        /** {@link #MCP_HINTS}. */
        public Builder mcpHints(boolean v) {
            mcpHints = v;
            return this;
        }

        /** {@link #HELD_MESSAGE}. */
        public Builder heldMessage(HeldMessage v) {
            heldMessage = v;
            return this;
        }

        /** {@link #APPROVAL} and {@link #APPROVAL_TIMEOUT}. */
        public Builder approvals(Approvals v) {
            approvals = v;
            return this;
        }

        public EffectfulConfig build() {
            return new EffectfulConfig(journalDir, sync, retention, failure, classifierFile, logLevel, rollCycle,
                    journalReserveBytes, store, taskBudget, mcpTrustTask, mcpHints, approvals, heldMessage);
        }
    }

    public static final String JOURNAL_DIR = "effectful.journal.dir";
    public static final String SYNC = "effectful.sync";
    public static final String RETENTION = "effectful.retention";
    public static final String FAILURE = "effectful.failure";
    public static final String CLASSIFIER_FILE = "effectful.classifier.file";
    public static final String LOG_LEVEL = "effectful.log.level";
    /**
     * Journal roll cycle: daily (default), hourly, minutely, secondly. Retention deletes whole cycle
     * files, so shorter cycles free space sooner; secondly is for tests of retention.
     */
    public static final String ROLL_CYCLE = "effectful.roll.cycle";
    /**
     * Free space the journal's disk must keep for new intents to be written (bytes; k, m, g
     * suffixes). Below it effectful calls are refused "disk full" so in-flight calls can still
     * write their outcomes. Default 16m.
     */
    public static final String JOURNAL_RESERVE = "effectful.journal.reserve";

    /**
     * Where intents are decided: {@code local} (this host's journal index) or a shared store's kind
     * ({@code postgres}: a fleet). A store reads its own keys ({@code effectful.store.*}), see
     * {@link dev.effectful.core.store.IntentStoreProvider#keys()}.
     */
    public static final String STORE = "effectful.store";

    /**
     * The budget of a task that a framework integration opens for a request without one (a
     * duration; default 5m).
     */
    public static final String TASK_BUDGET = "effectful.task.budget";

    /**
     * Whether an MCP server runs a tool request in the task its {@code _meta} entry names:
     * {@code loopback} (default: only for stdio and callers on a loopback address), {@code true}
     * (every caller), {@code false} (never). An entry is a claim: whoever can reach the server can
     * name any task. An authenticated principal of the transport is always the actor.
     */
    public static final String MCP_TRUST_TASK = "effectful.mcp.trust_task";

    /**
     * Whether an MCP server's {@code tools/list} carries the hints of each guarded tool's declared kind
     * ({@code readOnlyHint}, {@code destructiveHint}, {@code idempotentHint}, {@code openWorldHint}):
     * {@code true} (default) or {@code false} (tools are listed as their author wrote them).
     */
    public static final String MCP_HINTS = "effectful.mcp.hints";

    /**
     * Tools whose new intents a person approves before they run, besides those declaring
     * {@code approval = Approval.REQUIRED}: a comma-separated list of tool names (verbs) and kinds,
     * e.g. {@code money,delete_account} (in the agent argument, whose pairs commas separate:
     * {@code approval=money+delete_account}). Empty (default): none.
     */
    public static final String APPROVAL = "effectful.approval";
    /** How long an approval request waits for a verdict before it expires (a duration; default 24h). */
    public static final String APPROVAL_TIMEOUT = "effectful.approval.timeout";
    /**
     * Whether an approval request of a call made through an MCP server whose client declared the
     * {@code elicitation} capability asks that client's user first ({@code true}, default) or only waits
     * for the console and the CLI ({@code false}).
     */
    public static final String APPROVAL_ELICIT = "effectful.approval.elicit";

    /**
     * What a held call's answer tells the model: {@code short} (default: the outcome, that the effect may have
     * happened, and what to tell the user; the command a person runs goes to the log, the console and
     * {@code journal unresolved}) or {@code operator} (the answer carries that command too, with the agent jar's
     * and the journal's absolute paths).
     */
    public static final String HELD_MESSAGE = "effectful.held.message";

    /** Journal roll cycles {@link #ROLL_CYCLE} accepts. */
    public static final List<String> ROLL_CYCLES = List.of("daily", "hourly", "minutely", "five_minutely", "secondly");

    /** The configuration's own keys, full names; the agent argument also takes them without {@code effectful.}, and {@code journal}. */
    public static final List<String> KEYS = List.of(JOURNAL_DIR, SYNC, RETENTION, FAILURE, CLASSIFIER_FILE, LOG_LEVEL,
            ROLL_CYCLE, JOURNAL_RESERVE, STORE, TASK_BUDGET, MCP_TRUST_TASK, MCP_HINTS, APPROVAL, APPROVAL_TIMEOUT,
            APPROVAL_ELICIT, HELD_MESSAGE);

    /**
     * Every key: the configuration's own and every store's in this build ({@code effectful.store.*}, named by
     * its provider). The stores are looked up the first time a store key is met, not at every start.
     */
    public static List<String> allKeys() {
        return AllKeys.LIST;
    }

    private static final class AllKeys {
        static final List<String> LIST = withStoreKeys();
        static final List<String> ENV = LIST.stream().map(EffectfulConfig::envName).toList();

        private static List<String> withStoreKeys() {
            List<String> all = new ArrayList<>(KEYS);
            for (IntentStoreProvider p : IntentStoreProviders.all()) {
                p.keys().stream().filter(k -> !all.contains(k)).forEach(all::add);
            }
            return List.copyOf(all);
        }
    }

    private static final List<String> OWN_ENV = KEYS.stream().map(EffectfulConfig::envName).toList();

    private static boolean known(String key) {
        return KEYS.contains(key) || key.startsWith(STORE + ".") && allKeys().contains(key);
    }

    private static boolean knownEnv(String name) {
        return OWN_ENV.contains(name) || name.startsWith("EFFECTFUL_STORE_") && AllKeys.ENV.contains(name);
    }

    /** System properties of the command-line tool, not of the agent: known, never warned about. */
    private static final Set<String> TOOL_PROPERTIES = Set.of("effectful.cli.stallMillis");

    /**
     * {@link #APPROVAL}, {@link #APPROVAL_TIMEOUT} and {@link #APPROVAL_ELICIT}: which tools need a person's
     * approval by configuration (lower-case tool names and kind words), how long a request waits for a verdict,
     * and whether an MCP client that can ask its user is asked.
     */
    public record Approvals(Set<String> names, Duration timeout, boolean elicit) {
        public static final Approvals NONE = new Approvals(Set.of(), Duration.ofHours(24), true);

        /** Named tools and a timeout, the MCP client asked (the default). */
        public Approvals(Set<String> names, Duration timeout) {
            this(names, timeout, true);
        }

        /** Whether the configuration names this tool, by its verb or its kind word. */
        public boolean names(String verb, String kindWord) {
            return !names.isEmpty() && (names.contains(verb.toLowerCase(Locale.ROOT)) || names.contains(kindWord));
        }
    }

    /** {@code effectful.mcp.trust_task}: whose task entries an MCP server believes. */
    public enum TrustTask { LOOPBACK, TRUE, FALSE }

    /** {@link #HELD_MESSAGE}: who a held call's answer is written for. */
    public enum HeldMessage { SHORT, OPERATOR }

    /**
     * What the configured shared store's provider is handed to open it: its settings and the few keys of
     * this configuration a store reads. Null when the store is {@code local} (no provider).
     */
    public StoreContext storeContext() {
        return store.settings() == null ? null : new StoreContext(store.settings(), journalDir, retention);
    }

    /**
     * The intent store: {@code local}, or a shared store's kind with the settings its provider read and
     * checked ({@link IntentStoreProvider#configure}); {@link #toString()} is the settings' own
     * description, which never shows a password.
     */
    public record Store(String kind, StoreSettings settings) {

        /** This host's journal index decides alone. */
        public static final Store LOCAL = new Store("local", null);

        public Store {
            Objects.requireNonNull(kind, "kind");
        }

        /** Whether this host decides alone (no shared store). */
        public boolean isLocal() {
            return settings == null;
        }

        @Override
        public String toString() {
            return "Store[" + kind + (settings == null ? "" : " " + settings.describe()) + "]";
        }
    }

    /** {@code effectful.sync}: none survives a killed process, intent also survives power loss. */
    public enum Sync { NONE, INTENT }

    /** {@code effectful.failure}: how a failure reaches a tool that does not return Outcome. */
    public enum Failure { EXCEPTION, JSON }

    /** {@code effectful.log.level}. */
    public enum LogLevel { ERROR, WARN, INFO, DEBUG }

    /**
     * One thing wrong with the configuration, as a sentence naming the key, the value, what is
     * allowed, and the nearest known key or value.
     *
     * @param key     the key concerned (or {@code agent argument} for a malformed argument string)
     * @param message the sentence
     */
    public record Problem(String key, String message) {
    }

    /**
     * The configuration as read, with what was wrong with it.
     *
     * @param config   the values; any invalid one replaced by its default (never used to guard calls)
     * @param errors   invalid values, unknown keys or a malformed agent argument: fail closed
     * @param warnings unknown {@code effectful.*} properties and {@code EFFECTFUL_*} variables
     * @param given    the keys given at all, in any source
     */
    public record Loaded(EffectfulConfig config, List<Problem> errors, List<String> warnings, Set<String> given) {

        /** Makes the lists immutable. */
        public Loaded {
            errors = List.copyOf(errors);
            warnings = List.copyOf(warnings);
            given = Set.copyOf(given);
        }

        public boolean valid() {
            return errors.isEmpty();
        }

        /** True when {@code key} was given at all (agent argument, system property or environment). */
        public boolean isSet(String key) {
            return given.contains(key);
        }

        /** Every error, in one line: what a refused call and the loud start-up line say. */
        public String errorSummary() {
            StringBuilder sb = new StringBuilder("effectful configuration error: ");
            for (int i = 0; i < errors.size(); i++) {
                sb.append(i == 0 ? "" : "; ").append(errors.get(i).message());
            }
            return sb.append(". Every effectful tool call is refused until the configuration is fixed and the JVM"
                    + " restarted; READ tools run").toString();
        }
    }

    /** Reads the configuration; throws {@link IllegalArgumentException} naming every error (for the CLI). */
    public static EffectfulConfig load(String agentArgs) {
        return orThrow(read(agentArgs));
    }

    /** Reads the configuration from the agent argument string, system properties and environment, keeping every problem. */
    public static Loaded read(String agentArgs) {
        return read(agentArgs, System.getProperties(), System.getenv());
    }

    /** True when {@code key} was given at all (agent argument, system property or environment), not defaulted. */
    public static boolean isSet(String key, String agentArgs) {
        return read(agentArgs).isSet(key);
    }

    /** Reads the configuration from the given agent argument, system properties and environment (tools, tests). */
    public static Loaded read(String agentArgs, Properties sys, Map<String, String> env) {
        List<Problem> errors = new ArrayList<>();
        Map<String, String> args = parseAgentArgs(agentArgs, errors);
        Loaded loaded = read(args, sys::getProperty, env, errors);
        List<String> warnings = new ArrayList<>(loaded.warnings());
        for (String name : new TreeSet<>(sys.stringPropertyNames())) {
            if (name.startsWith("effectful.") && !known(name) && !TOOL_PROPERTIES.contains(name)) {
                warnings.add("effectful: unknown system property -D" + name + " is ignored; did you mean -D"
                        + nearest(name, allKeys()) + "?");
            }
        }
        for (String name : new TreeSet<>(env.keySet())) {
            if (name.startsWith("EFFECTFUL_") && !knownEnv(name)) {
                warnings.add("effectful: unknown environment variable " + name + " is ignored; did you mean "
                        + nearest(name, AllKeys.ENV) + "?");
            }
        }
        return new Loaded(loaded.config(), loaded.errors(), warnings, loaded.given());
    }

    static EffectfulConfig load(Map<String, String> agentArgs, Map<String, String> env) {
        return orThrow(read(agentArgs, System::getProperty, env, new ArrayList<>()));
    }

    private static EffectfulConfig orThrow(Loaded loaded) {
        if (!loaded.valid()) {
            throw new IllegalArgumentException(String.join("; ", loaded.errors().stream().map(Problem::message).toList()));
        }
        return loaded.config();
    }

    private static Loaded read(Map<String, String> agentArgs, UnaryOperator<String> sys, Map<String, String> env,
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
        for (String key : config.store().isLocal() ? KEYS : allKeys()) {
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

    /**
     * {@code journal=DIR,sync=intent} or full key names; short names are the key without the
     * {@code effectful.} prefix. Throws on the first problem (see {@link #read} for all of them).
     */
    static Map<String, String> parseAgentArgs(String args) {
        List<Problem> errors = new ArrayList<>();
        Map<String, String> out = parseAgentArgs(args, errors);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(errors.get(0).message());
        }
        return out;
    }

    /** Parses the agent argument, adding a {@link Problem} for each malformed part or unknown key. */
    static Map<String, String> parseAgentArgs(String args, List<Problem> errors) {
        Map<String, String> out = new LinkedHashMap<>();
        if (args == null || args.isBlank()) {
            return out;
        }
        if (args.indexOf(';') >= 0) {
            // journal=a;sync=intent once made a directory named "a;sync=intent" and left sync at none
            errors.add(new Problem("agent argument", "malformed agent argument '" + args + "': settings are"
                    + " separated by ',' not ';' (did you mean '" + args.replace(';', ',') + "'?)"));
            return out;
        }
        for (String part : args.split(",", -1)) {
            int eq = part.indexOf('=');
            String rawKey = eq < 0 ? part.trim() : part.substring(0, eq).trim();
            if (eq <= 0 || rawKey.isEmpty()) {
                errors.add(new Problem("agent argument", "malformed agent argument '" + args + "': '" + part
                        + "' is not key=value" + (rawKey.isEmpty() ? "" : " (did you mean '"
                        + nearest(rawKey, shortNames()) + "=...'?)")));
                continue;
            }
            String key = fullName(rawKey);
            String value = part.substring(eq + 1).trim();
            if (!known(key)) {
                String bare = rawKey.startsWith("effectful.") ? rawKey.substring("effectful.".length()) : rawKey;
                String near = nearest(bare, shortNames());
                errors.add(new Problem(rawKey, "unknown key '" + rawKey + "' in the agent argument; did you mean '"
                        + near + "' (" + fullName(near) + ")?"));
            } else if (value.isEmpty()) {
                errors.add(new Problem(key, rawKey + "= has no value in the agent argument"));
            } else if (out.containsKey(key)) {
                errors.add(new Problem(key, key + " is given twice in the agent argument"));
            } else {
                out.put(key, value);
            }
        }
        return out;
    }

    private static String fullName(String key) {
        if (key.equals("journal")) {
            return JOURNAL_DIR;
        }
        return key.startsWith("effectful.") ? key : "effectful." + key;
    }

    private static List<String> shortNames() {
        List<String> out = new ArrayList<>();
        out.add("journal");
        for (String k : allKeys()) {
            out.add(k.substring("effectful.".length()));
        }
        return out;
    }

    private static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /** The candidate nearest to {@code word} by edit distance (a swap of two neighbours counts one). */
    static String nearest(String word, List<String> candidates) {
        String best = candidates.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = distance(word.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /**
     * The longest duration any key takes: what a signed 64-bit count of nanoseconds holds (about 292
     * years). Deadlines and retention cut-offs are computed in nanoseconds and milliseconds; a longer
     * value would overflow there, at the first call, as a retryable error no retry can fix.
     */
    static final Duration MAX_DURATION = Duration.ofDays(106_751);

    /**
     * A list of tool names and kind words, lower-cased; a blank list is none. Separated by commas, or by
     * plus signs where a comma separates something else (the agent argument: {@code approval=money+refund}).
     */
    static Set<String> parseNames(String key, String v) {
        Set<String> out = new java.util.TreeSet<>();
        for (String part : v.split("[,;+\\s]+")) {
            String n = part.strip().toLowerCase(Locale.ROOT);
            if (n.isEmpty()) {
                continue;
            }
            if (!n.matches("[a-z0-9_.:$-]+")) {
                throw new IllegalArgumentException(key + "=" + v + ": '" + part.strip() + "' is neither a tool name nor a"
                        + " kind (a comma-separated list such as money,delete_account)");
            }
            out.add(n);
        }
        return Set.copyOf(out);
    }

    static Duration parseDuration(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            Duration d;
            if (s.startsWith("p")) {
                d = Duration.parse(s.toUpperCase(Locale.ROOT));
            } else if (s.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            } else {
                long n = Long.parseLong(s.substring(0, s.length() - 1));
                d = switch (s.charAt(s.length() - 1)) {
                    case 'd' -> Duration.ofDays(n);
                    case 'h' -> Duration.ofHours(n);
                    case 'm' -> Duration.ofMinutes(n);
                    case 's' -> Duration.ofSeconds(n);
                    default -> throw new IllegalArgumentException();
                };
            }
            if (d.isNegative()) {
                throw new IllegalArgumentException();
            }
            if (d.compareTo(MAX_DURATION) > 0) {
                throw new IllegalArgumentException(key + "=" + v + " is too long: at most " + MAX_DURATION.toDays()
                        + "d (a deadline or cut-off must stay a count of nanoseconds)");
            }
            return d;
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(key)) {
                throw e;
            }
            throw new IllegalArgumentException(key + "=" + v + " is not a duration (7d, 12h, 30m, 45s, 500ms or ISO-8601 PT1H)");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a duration (7d, 12h, 30m, 45s, 500ms or ISO-8601 PT1H)");
        }
    }

    static long parseBytes(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            int shift = switch (s.charAt(s.length() - 1)) {
                case 'k' -> 10;
                case 'm' -> 20;
                case 'g' -> 30;
                default -> 0;
            };
            long n = Long.parseLong(shift == 0 ? s : s.substring(0, s.length() - 1));
            if (n < 0 || n > Long.MAX_VALUE >> shift) {
                throw new IllegalArgumentException(); // n << shift would wrap round to a small or negative size
            }
            return n << shift;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a size (bytes, or with k, m, g)");
        }
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String key, String v) {
        List<String> words = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
        return Enum.valueOf(type, parseWord(key, v, words).toUpperCase(Locale.ROOT));
    }

    /** {@code true} or {@code false} (case-insensitive), or an error naming them. */
    private static boolean parseBoolean(String key, String v) {
        return Boolean.parseBoolean(parseWord(key, v, List.of("true", "false")));
    }

    /** One of {@code allowed} (case-insensitive), or an error naming them and the nearest. */
    static String parseWord(String key, String v, List<String> allowed) {
        String w = v.trim().toLowerCase(Locale.ROOT);
        if (!allowed.contains(w)) {
            throw new IllegalArgumentException(key + "=" + v + " is not one of " + String.join(", ", allowed)
                    + "; did you mean " + nearest(w, allowed) + "?");
        }
        return w;
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
