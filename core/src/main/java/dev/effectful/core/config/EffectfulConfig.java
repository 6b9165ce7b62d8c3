package dev.effectful.core.config;

import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.StoreContext;
import dev.effectful.core.store.StoreSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

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
 *
 * <p>This class is the keys and their values; reading them is apart: {@code ConfigReader} (the sources and
 * their precedence), {@code AgentArgument} (the argument string), {@code ValueParsers} (a value's text),
 * {@code KeyNames} (a key's short and environment names) and {@code NearestWord} (the "did you mean").
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
        return KeyNames.all();
    }

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
        return ConfigReader.read(agentArgs, sys, env);
    }

    static EffectfulConfig load(Map<String, String> agentArgs, Map<String, String> env) {
        return orThrow(ConfigReader.read(agentArgs, System::getProperty, env, new ArrayList<>()));
    }

    private static EffectfulConfig orThrow(Loaded loaded) {
        if (!loaded.valid()) {
            throw new IllegalArgumentException(String.join("; ", loaded.errors().stream().map(Problem::message).toList()));
        }
        return loaded.config();
    }
}
