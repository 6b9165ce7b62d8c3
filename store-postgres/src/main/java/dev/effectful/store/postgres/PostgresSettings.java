package dev.effectful.store.postgres;

import dev.effectful.core.store.StoreKeys;
import dev.effectful.core.store.StoreSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The PostgreSQL store's keys and their checked values; {@link #toString()} never shows the password
 * or the URL's query string (which may carry credentials).
 *
 * @param url      {@value #URL}: {@code jdbc:postgresql://HOST:PORT/DB}
 * @param user     {@value #USER}, or null (the driver's default)
 * @param password {@value #PASSWORD}, else the content of {@value #PASSWORD_FILE}; null when neither
 * @param lease    {@value #LEASE}: how long a claim outlives a host that stopped renewing it
 * @param timeout  {@value #TIMEOUT}: connect and statement timeout, further capped by the task budget
 */
public record PostgresSettings(String url, String user, String password, Duration lease, Duration timeout)
        implements StoreSettings {

    /** JDBC URL of the shared store, e.g. {@code jdbc:postgresql://db:5432/effectful}. */
    public static final String URL = "effectful.store.url";
    public static final String USER = "effectful.store.user";
    /** Also from the environment as {@code EFFECTFUL_STORE_PASSWORD}; never logged. */
    public static final String PASSWORD = "effectful.store.password";
    /** A file whose content (trailing newline removed) is the password; used when no password is given directly. */
    public static final String PASSWORD_FILE = "effectful.store.password.file";
    /** Default 30s; a claim is renewed every third of it. */
    public static final String LEASE = "effectful.store.lease";
    /** Default 2s. */
    public static final String TIMEOUT = "effectful.store.timeout";

    /** Every key of this store. */
    public static final List<String> KEYS = List.of(URL, USER, PASSWORD, PASSWORD_FILE, LEASE, TIMEOUT);
    /** What a host needs to reach the store: the CLI is run with these. */
    public static final List<String> REACH_KEYS = List.of(URL, USER, PASSWORD, PASSWORD_FILE);

    static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    /** Reads and checks the keys; null (with each problem reported) when they do not make a store. */
    static PostgresSettings read(StoreKeys keys) {
        Duration lease = keys.duration(LEASE, DEFAULT_LEASE);
        Duration timeout = keys.duration(TIMEOUT, DEFAULT_TIMEOUT);
        String url = keys.get(URL).orElse(null);
        if (url == null) {
            keys.error(URL, "effectful.store=postgres needs " + URL + " (jdbc:postgresql://HOST:PORT/DB)");
            return null;
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            keys.error(URL, URL + " must start with jdbc:postgresql:");
            return null;
        }
        String password = keys.get(PASSWORD).orElse(null);
        java.util.Optional<String> passwordFile = password == null ? keys.get(PASSWORD_FILE) : java.util.Optional.empty();
        if (passwordFile.isPresent()) {
            Path file = Path.of(passwordFile.get());
            try {
                password = Files.readString(file).replaceAll("[\\r\\n]+$", "");
            } catch (IOException e) {
                keys.error(PASSWORD_FILE, "cannot read " + PASSWORD_FILE + "=" + file + ": " + e);
                return null;
            }
        }
        return new PostgresSettings(url, keys.get(USER).orElse(null), password, lease, timeout);
    }

    /** The URL without its query string (which may carry credentials): for messages and logs. */
    public String safeUrl() {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    @Override
    public String describe() {
        return safeUrl() + " user=" + user + " lease=" + lease.toMillis() + "ms timeout=" + timeout.toMillis() + "ms";
    }

    @Override
    public String toString() {
        return "PostgresSettings[" + describe() + (password == null ? "" : " password=***") + "]";
    }
}
