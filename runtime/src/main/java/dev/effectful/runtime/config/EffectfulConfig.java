package dev.effectful.runtime.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every configuration key of the agent, in one place (README "Configuration" mirrors this class).
 *
 * <p>Each key is read, in order of precedence, from the agent argument string
 * ({@code -javaagent:effectful-agent.jar=journal=/var/effectful,sync=intent}), a system property,
 * an environment variable (upper case, dots as underscores), then the default.
 */
public record EffectfulConfig(Path journalDir, Sync sync, Duration retention, Failure failure,
                              Optional<Path> classifierFile, LogLevel logLevel, String rollCycle,
                              long journalReserveBytes, Store store) {

    /** The configuration of a single host with the defaults of the later keys (local store, 16 MiB reserve). */
    public EffectfulConfig(Path journalDir, Sync sync, Duration retention, Failure failure,
                           Optional<Path> classifierFile, LogLevel logLevel, String rollCycle) {
        this(journalDir, sync, retention, failure, classifierFile, logLevel, rollCycle, 16L << 20, Store.LOCAL);
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

    /** Where intents are decided: {@code local} (this host's journal index) or {@code postgres} (shared by a fleet). */
    public static final String STORE = "effectful.store";
    /** JDBC URL of the shared store, e.g. {@code jdbc:postgresql://db:5432/effectful}. */
    public static final String STORE_URL = "effectful.store.url";
    public static final String STORE_USER = "effectful.store.user";
    /** Also from the environment as {@code EFFECTFUL_STORE_PASSWORD}; never logged. */
    public static final String STORE_PASSWORD = "effectful.store.password";
    /** A file whose content (trailing newline removed) is the password; used when no password is given directly. */
    public static final String STORE_PASSWORD_FILE = "effectful.store.password.file";
    /** How long a claim outlives a host that stopped renewing it (default 30s; renewed every third of it). */
    public static final String STORE_LEASE = "effectful.store.lease";
    /** Connect and statement timeout towards the store (default 2s), further capped by the task budget. */
    public static final String STORE_TIMEOUT = "effectful.store.timeout";

    /** {@code effectful.store}. */
    public enum StoreKind { LOCAL, POSTGRES }

    /** The intent store's settings; {@link #toString()} never shows the password. */
    public record Store(StoreKind kind, String url, String user, String password, Duration lease, Duration timeout) {

        public static final Store LOCAL = new Store(StoreKind.LOCAL, null, null, null, Duration.ofSeconds(30),
                Duration.ofSeconds(2));

        /** The URL without its query string (which may carry credentials): for messages and logs. */
        public String safeUrl() {
            if (url == null) {
                return "local";
            }
            int q = url.indexOf('?');
            return q < 0 ? url : url.substring(0, q);
        }

        @Override
        public String toString() {
            return "Store[" + kind.name().toLowerCase(Locale.ROOT) + " " + safeUrl() + " user=" + user + " lease=" + lease
                    + " timeout=" + timeout + (password == null ? "" : " password=***") + "]";
        }
    }

    /** {@code effectful.sync}: none survives a killed process, intent also survives power loss. */
    public enum Sync { NONE, INTENT }

    /** {@code effectful.failure}: how a failure reaches a tool that does not return Outcome. */
    public enum Failure { EXCEPTION, JSON }

    /** {@code effectful.log.level}. */
    public enum LogLevel { ERROR, WARN, INFO, DEBUG }

    /** Reads the configuration from the agent argument string, system properties and environment. */
    public static EffectfulConfig load(String agentArgs) {
        return load(parseAgentArgs(agentArgs), System.getenv());
    }

    /** True when {@code key} was given at all (agent argument, system property or environment), not defaulted. */
    public static boolean isSet(String key, String agentArgs) {
        return new Source(parseAgentArgs(agentArgs), System.getenv()).get(key).isPresent();
    }

    static EffectfulConfig load(Map<String, String> agentArgs, Map<String, String> env) {
        Source src = new Source(agentArgs, env);
        Path dir = Path.of(src.get(JOURNAL_DIR).orElse("./effectful-journal")).toAbsolutePath().normalize();
        return new EffectfulConfig(
                dir,
                src.get(SYNC).map(v -> parseEnum(Sync.class, SYNC, v)).orElse(Sync.NONE),
                src.get(RETENTION).map(v -> parseDuration(RETENTION, v)).orElse(Duration.ofDays(7)),
                src.get(FAILURE).map(v -> parseEnum(Failure.class, FAILURE, v)).orElse(Failure.EXCEPTION),
                src.get(CLASSIFIER_FILE).map(Path::of),
                src.get(LOG_LEVEL).map(v -> parseEnum(LogLevel.class, LOG_LEVEL, v)).orElse(LogLevel.INFO),
                src.get(ROLL_CYCLE).orElse("daily"),
                src.get(JOURNAL_RESERVE).map(v -> parseBytes(JOURNAL_RESERVE, v)).orElse(16L << 20),
                store(src));
    }

    private static Store store(Source src) {
        StoreKind kind = src.get(STORE).map(v -> parseEnum(StoreKind.class, STORE, v)).orElse(StoreKind.LOCAL);
        Duration lease = src.get(STORE_LEASE).map(v -> parseDuration(STORE_LEASE, v)).orElse(Store.LOCAL.lease());
        Duration timeout = src.get(STORE_TIMEOUT).map(v -> parseDuration(STORE_TIMEOUT, v)).orElse(Store.LOCAL.timeout());
        if (kind == StoreKind.LOCAL) {
            return new Store(kind, null, null, null, lease, timeout);
        }
        String url = src.get(STORE_URL).orElseThrow(() -> new IllegalArgumentException(
                STORE + "=postgres needs " + STORE_URL + " (jdbc:postgresql://HOST:PORT/DB)"));
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(STORE_URL + " must start with jdbc:postgresql:");
        }
        String password = src.get(STORE_PASSWORD).orElse(null);
        if (password == null && src.get(STORE_PASSWORD_FILE).isPresent()) {
            Path file = Path.of(src.get(STORE_PASSWORD_FILE).get());
            try {
                password = java.nio.file.Files.readString(file).replaceAll("[\\r\\n]+$", "");
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("cannot read " + STORE_PASSWORD_FILE + "=" + file + ": " + e);
            }
        }
        return new Store(kind, url, src.get(STORE_USER).orElse(null), password, lease, timeout);
    }

    /**
     * {@code journal=DIR,sync=intent} or full key names; short names are the key without the
     * {@code effectful.} prefix.
     */
    static Map<String, String> parseAgentArgs(String args) {
        Map<String, String> out = new HashMap<>();
        if (args == null || args.isBlank()) {
            return out;
        }
        for (String part : args.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("agent argument '" + part + "' is not key=value");
            }
            String key = part.substring(0, eq).trim();
            if (key.equals("journal")) {
                key = JOURNAL_DIR;
            } else if (!key.startsWith("effectful.")) {
                key = "effectful." + key;
            }
            out.put(key, part.substring(eq + 1).trim());
        }
        return out;
    }

    static Duration parseDuration(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("p")) {
                return Duration.parse(s.toUpperCase(Locale.ROOT));
            }
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
            }
            long n = Long.parseLong(s.substring(0, s.length() - 1));
            return switch (s.charAt(s.length() - 1)) {
                case 'd' -> Duration.ofDays(n);
                case 'h' -> Duration.ofHours(n);
                case 'm' -> Duration.ofMinutes(n);
                case 's' -> Duration.ofSeconds(n);
                default -> throw new IllegalArgumentException();
            };
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
            if (n < 0) {
                throw new IllegalArgumentException();
            }
            return n << shift;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a size (bytes, or with k, m, g)");
        }
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String key, String v) {
        try {
            return Enum.valueOf(type, v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    private record Source(Map<String, String> agentArgs, Map<String, String> env) {
        Optional<String> get(String key) {
            String v = agentArgs.get(key);
            if (v == null) {
                v = System.getProperty(key);
            }
            if (v == null) {
                v = env.get(key.toUpperCase(Locale.ROOT).replace('.', '_'));
            }
            return Optional.ofNullable(v).filter(s -> !s.isBlank());
        }
    }
}
