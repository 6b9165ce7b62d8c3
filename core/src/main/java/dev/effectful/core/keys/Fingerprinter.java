package dev.effectful.core.keys;

import dev.effectful.core.json.CanonicalJson;
import dev.effectful.core.json.NotCanonicalException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keyed fingerprints of {@code @Redact} values: HMAC-SHA-256 under a secret kept owner-only in the
 * journal directory. A plain hash would let anyone holding the journal recover a short secret (a
 * PIN, a card's last digits) by hashing guesses; without the key file they cannot.
 *
 * <p>The secret belongs to the journal: the same directory always gives the same fingerprints,
 * so a redacted {@code @IntentKey} argument still dedups across restarts. Because such a key
 * depends on the secret, the secret never changes silently: the first key fingerprinted records
 * the secret's id ({@link #id()}, an HMAC of a constant) in {@value #ID_FILE}; when the journal is
 * later opened with a missing or different {@code secret.key}, calls whose key needs a fingerprint
 * are refused ({@link KeySecretException}) until a person restores the file or accepts the new
 * secret ({@code journal secret --acknowledge-new}, which writes its id to {@value #ACK_FILE}).
 * Fingerprints of arguments that are not part of a key are made either way: they only stand in
 * for the value in what Effectful writes.
 */
public final class Fingerprinter {

    /** The secret's file in the journal directory. */
    public static final String SECRET_FILE = "secret.key";
    /** The id of the secret the journal's fingerprinted intent keys were made with. */
    public static final String ID_FILE = "secret.key.id";
    /** The id of a new secret a person accepted in place of the recorded one. */
    public static final String ACK_FILE = "secret.key.acknowledged";
    /** What the id is an HMAC of: any fixed text; the id reveals nothing of the secret. */
    private static final String ID_INPUT = "effectful secret id";
    /** How often a refused key looks at the files again (a person may have restored the secret). */
    private static final long RECHECK_NANOS = 500_000_000L;
    static final int SECRET_BYTES = 32;
    private static final int HEX_DIGITS = 32;
    private static final String ALGORITHM = "HmacSHA256";

    private volatile SecretKeySpec key;
    /** The journal this secret belongs to; null for a scratch secret no journal keeps. */
    private final Path journalDir;
    /**
     * Null while keys may be fingerprinted; otherwise why not (the secret is not the one the
     * journal's keys were made with). Changed only by {@link #checkAgainstRecord}.
     */
    private volatile String keyRefusal;
    /** Whether {@value #ID_FILE} names this secret, so the first key need not write it. */
    private volatile boolean idRecorded;
    private volatile long lastRecheck = System.nanoTime();
    /** Whether this process made {@code secret.key} because it was missing (said in the refusal). */
    private volatile boolean madeAtOpen;
    /** Whether {@link #keyRefusal} passes by itself (the fleet's key not fetched yet). */
    private volatile boolean refusalRetryable;
    /** Fleet mode: where the fleet's one key is kept; null on a host of its own. */
    private volatile FleetKeySource fleet;
    /** Whether the fleet's key was fetched and compared with this journal's (whatever the verdict). */
    private volatile boolean fleetAgreed;
    private long lastFleetTry;
    /**
     * Made by the first fingerprint, not at start: finding HmacSHA256 walks the JCA provider list
     * (some eighty JDK classes, the crypto policy files), which only a call with a {@code @Redact}
     * argument needs. Two threads racing to make it each make an equal one; either may stay. It
     * remembers the key it was made with, so a restored secret never meets a stale prototype.
     */
    private volatile Prototype prototype;

    private record Prototype(SecretKeySpec key, Mac mac) {
    }

    private Fingerprinter(byte[] secret, Path journalDir) {
        key = new SecretKeySpec(secret, ALGORITHM);
        this.journalDir = journalDir;
    }

    /**
     * Loads {@code journalDir/secret.key}, creating it (and the directory) when missing.
     *
     * @throws IOException when the file cannot be created or read, is not a regular file, has the
     *     wrong size, or is accessible to group or others
     */
    public static Fingerprinter forJournal(Path journalDir) throws IOException {
        Path secretFile = journalDir.resolve(SECRET_FILE);
        boolean existed = Files.exists(secretFile, LinkOption.NOFOLLOW_LINKS);
        if (!existed) {
            SecretFiles.create(journalDir, secretFile);
        }
        Fingerprinter f = new Fingerprinter(SecretFiles.read(secretFile), journalDir);
        f.madeAtOpen = !existed;
        f.checkAgainstRecord();
        if (existed && !f.idRecorded && KeyFormat.holdsEarlierKeys(journalDir)) {
            // a journal written before the id was recorded: whatever keys it holds were made with
            // this secret, so its loss from now on is noticed like any other journal's
            f.recordId();
        }
        return f;
    }

    /** A secret of this process alone, for when no journal is open (nothing is written then). */
    public static Fingerprinter scratch() {
        byte[] secret = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        return new Fingerprinter(secret, null);
    }

    /**
     * The secret's id: {@code "hmac:"} + 32 hex digits of HMAC-SHA-256 of a constant. Equal ids,
     * equal secrets; the id gives nothing away about the secret or any fingerprint.
     */
    public String id() {
        return fingerprintText(ID_INPUT);
    }

    /** The id of the secret in {@code journalDir/secret.key}; empty when there is none. */
    public static java.util.Optional<String> idOfFile(Path journalDir) throws IOException {
        Path secretFile = journalDir.resolve(SECRET_FILE);
        if (!Files.exists(secretFile, LinkOption.NOFOLLOW_LINKS)) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Fingerprinter(SecretFiles.read(secretFile), null).id());
    }

    /** What {@value #ID_FILE} records, or null when no key was fingerprinted in this journal yet. */
    public static String recordedId(Path journalDir) throws IOException {
        return SecretFiles.readSmall(journalDir.resolve(ID_FILE));
    }

    /**
     * Records in {@value #ACK_FILE} that a person accepts the secret now in {@code secret.key} (made
     * here when there is none) as the journal's: the next check lets keys be fingerprinted with it.
     * Returns the accepted secret's id.
     */
    public static String acknowledgeNew(Path journalDir) throws IOException {
        Path secretFile = journalDir.resolve(SECRET_FILE);
        if (!Files.exists(secretFile, LinkOption.NOFOLLOW_LINKS)) {
            SecretFiles.create(journalDir, secretFile);
        }
        String id = new Fingerprinter(SecretFiles.read(secretFile), null).id();
        SecretFiles.writeSmall(journalDir, ACK_FILE, id);
        return id;
    }

    /**
     * A fingerprint that is part of an intent key: as {@link #fingerprint}, but refused while the
     * secret is not the one the journal's keys were made with, and the first one records the
     * secret's id so that a later change is noticed.
     *
     * @throws KeySecretException naming the secret's file and the fix
     */
    public String fingerprintForKey(Object value) {
        if (fleet != null && !fleetAgreed) {
            awaitFleetKey();
        }
        String refusal = keyRefusal;
        if (refusal != null) {
            long now = System.nanoTime();
            if (now - lastRecheck > RECHECK_NANOS) {
                lastRecheck = now;
                recheck();
                refusal = keyRefusal;
            }
            if (refusal != null) {
                throw new KeySecretException(refusal, refusalRetryable);
            }
        }
        if (!idRecorded && journalDir != null) {
            recordId();
        }
        return fingerprint(value);
    }

    /** Whether keys that need a fingerprint are refused now, and why. */
    public java.util.Optional<String> keyRefusal() {
        return java.util.Optional.ofNullable(keyRefusal);
    }

    /**
     * Compares this secret with the id the journal recorded (and a person's acknowledgement of a new
     * one).
     */
    private synchronized void checkAgainstRecord() throws IOException {
        String mine = id();
        String recorded = recordedId(journalDir);
        if (recorded == null || recorded.equals(mine)) {
            idRecorded = recorded != null;
            keyRefusal = null;
            return;
        }
        if (mine.equals(SecretFiles.readSmall(journalDir.resolve(ACK_FILE)))) {
            // a person accepted this secret: from now on the journal's keys are made with it
            SecretFiles.writeSmall(journalDir, ID_FILE, mine);
            idRecorded = true;
            keyRefusal = null;
            dev.effectful.core.log.AgentLog.warn("effectful: the journal's secret " + journalDir.resolve(SECRET_FILE)
                    + " was replaced and a person acknowledged the new one; intent keys with @Redact values are made"
                    + " with it from now on");
            return;
        }
        Path secretFile = journalDir.resolve(SECRET_FILE);
        String refusal = "the journal's secret " + secretFile + (!madeAtOpen ? " is not the one" : " was missing (a new one was made);"
                + " it is not the one") + " this journal's intent keys with @Redact values were made with (" + recorded
                + " in " + journalDir.resolve(ID_FILE) + "), so such a key would silently differ and a done intent could"
                + " run again: calls whose intent key needs a @Redact value are refused. Restore the original "
                + secretFile + " from a backup, or accept the new secret (intents keyed with the old one are then no"
                + " longer recognised): java -jar effectful-agent.jar journal --dir " + journalDir
                + " secret --acknowledge-new";
        boolean announce = keyRefusal == null;
        keyRefusal = refusal;
        if (announce) {
            dev.effectful.core.log.AgentLog.errorOnce("secret-changed:" + journalDir, "effectful: " + refusal, null);
        }
    }

    /**
     * Fleet mode: fingerprints with the fleet's one key from now on. When the fleet has none yet,
     * this journal's secret becomes it. When it differs from this journal's: adopted (written to
     * {@code secret.key}) if no key of this journal was fingerprinted yet, or if the journal's keys
     * were made with the fleet's key; otherwise keys that need it are refused, naming both. When the
     * store cannot be asked, such keys are refused as retryable until it answers.
     */
    public synchronized void joinFleet(FleetKeySource source) {
        // asked on the first key that needs it, not at start: a start never waits for the store
        fleet = source;
        fleetAgreed = false;
    }

    /** Fleet mode, before the first fingerprinted key: the fleet's key, asked for at most every {@value #RECHECK_NANOS} ns. */
    private void awaitFleetKey() {
        synchronized (this) {
            long now = System.nanoTime();
            if (!fleetAgreed && (lastFleetTry == 0 || now - lastFleetTry > RECHECK_NANOS)) {
                lastFleetTry = now;
                agreeWithFleet();
            }
        }
        if (!fleetAgreed) {
            String why = keyRefusal;
            throw new KeySecretException(why != null ? why : "the fleet's fingerprint key is not known yet", true);
        }
    }

    private synchronized void agreeWithFleet() {
        byte[] fleetSecret;
        try {
            fleetSecret = fleet.agree(key.getEncoded());
            if (fleetSecret == null || fleetSecret.length != SECRET_BYTES) {
                throw new IOException("the fleet's fingerprint key in " + fleet.describe() + " is not " + SECRET_BYTES
                        + " bytes");
            }
        } catch (Exception e) {
            refusalRetryable = true;
            keyRefusal = "the fleet's fingerprint key could not be read from " + fleet.describe() + " (" + e.getMessage()
                    + "): a @Redact @IntentKey value cannot be keyed as on the other hosts until it answers";
            return;
        }
        fleetAgreed = true;
        String fleetId = new Fingerprinter(fleetSecret, null).id();
        String recorded;
        try {
            recorded = journalDir == null ? null : recordedId(journalDir);
        } catch (IOException e) {
            recorded = "(unreadable: " + e.getMessage() + ")";
        }
        if (recorded == null || recorded.equals(fleetId)) {
            if (!java.security.MessageDigest.isEqual(fleetSecret, key.getEncoded()) && journalDir != null) {
                try {
                    SecretFiles.replaceSecret(journalDir, fleetSecret);
                } catch (IOException e) {
                    refusalRetryable = false;
                    keyRefusal = "this host could not store the fleet's fingerprint key in "
                            + journalDir.resolve(SECRET_FILE) + " (" + e.getMessage() + "); fix the directory's permissions";
                    return;
                }
                dev.effectful.core.log.AgentLog.info("effectful fleet mode: this host fingerprints @Redact values with"
                        + " the fleet's key (" + fleetId + ", kept in " + fleet.describe() + "), now also in "
                        + journalDir.resolve(SECRET_FILE));
            }
            key = new SecretKeySpec(fleetSecret, ALGORITHM);
            idRecorded = recorded != null;
            refusalRetryable = false;
            keyRefusal = null;
            return;
        }
        refusalRetryable = false;
        keyRefusal = "this host's secret " + (journalDir == null ? "(none)" : journalDir.resolve(SECRET_FILE)) + " ("
                + id() + ") made this journal's @Redact @IntentKey keys (" + recorded + "), but the fleet's fingerprint"
                + " key in " + fleet.describe() + " is another (" + fleetId + "): keyed with this host's secret such a"
                + " call would not be recognised on the other hosts, so it is refused. If this host's earlier intents"
                + " need not be recognised, stop it and move " + (journalDir == null ? "its journal"
                : journalDir.resolve(SECRET_FILE) + " and " + journalDir.resolve(ID_FILE)) + " aside: it adopts the fleet's"
                + " key at its next start";
        dev.effectful.core.log.AgentLog.errorOnce("fleet-key:" + journalDir, "effectful: " + keyRefusal, null);
    }

    /** A person may have restored the file or acknowledged the new secret since the last look. */
    private synchronized void recheck() {
        if (fleet != null) {
            agreeWithFleet();
            return;
        }
        try {
            Path secretFile = journalDir.resolve(SECRET_FILE);
            byte[] onDisk = SecretFiles.read(secretFile);
            if (!java.security.MessageDigest.isEqual(onDisk, key.getEncoded())) {
                key = new SecretKeySpec(onDisk, ALGORITHM);
            }
            checkAgainstRecord();
        } catch (IOException | RuntimeException e) {
            // still refused, with the reason it had
        }
    }

    private synchronized void recordId() {
        if (idRecorded) {
            return;
        }
        try {
            if (recordedId(journalDir) == null) {
                SecretFiles.writeSmall(journalDir, ID_FILE, id());
            }
            idRecorded = true;
        } catch (IOException e) {
            // the key is still right; the next key tries again to record which secret made it
            dev.effectful.core.log.AgentLog.warnOnce("secret-id", "effectful could not record the secret's id in "
                    + journalDir.resolve(ID_FILE) + ": " + e.getMessage());
        }
    }

    /**
     * {@code "hmac:"} + the first 32 hex digits of HMAC-SHA-256 over the value's canonical JSON,
     * or over its {@code toString()} when it has none. Equal values give equal fingerprints.
     * Exceptions thrown by the value's own {@code toString()} propagate.
     */
    public String fingerprint(Object value) {
        String text;
        try {
            text = CanonicalJson.of(value);
        } catch (NotCanonicalException e) {
            text = String.valueOf(value);
        }
        return fingerprintText(text);
    }

    private String fingerprintText(String text) {
        return "hmac:" + HexFormat.of().formatHex(mac().doFinal(text.getBytes(StandardCharsets.UTF_8))).substring(0, HEX_DIGITS);
    }

    /** Mac is stateful and not thread-safe; a clone of the initialised prototype skips key setup. */
    private Mac mac() {
        SecretKeySpec k = key;
        Prototype p = prototype;
        if (p == null || p.key() != k) {
            p = new Prototype(k, newMac(k));
            prototype = p;
        }
        try {
            return (Mac) p.mac().clone();
        } catch (CloneNotSupportedException e) {
            return newMac(k);
        }
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java SE platform is required to provide HmacSHA256.
            throw new IllegalStateException(ALGORITHM + " unavailable", e);
        }
    }
}
