package dev.effectful.runtime.engine;

import dev.effectful.core.journal.DamageAcknowledgements;
import dev.effectful.core.journal.RecordDamage;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Holds effectful calls while the journal has damaged records nobody acknowledged. The engine never
 * guesses what a damaged record said: it might be the intent of a charge that ran, and acting as if
 * it were not there could charge twice.
 * <ul>
 *   <li>a damaged record whose task is known for sure (its identity checksum matches): that task's
 *       effectful calls are held, unknown, body not run;</li>
 *   <li>one whose task cannot be read: it may belong to any task, so every effectful call is held;</li>
 *   <li>a record its writer left half written ({@link RecordDamage#torn()}): none. It was never acted
 *       on, and the intents it may belong to are the ones it left without an outcome, which the re-entry
 *       table already probes or holds as a crash.</li>
 * </ul>
 * READ calls run. Each message names the damage and the command that releases it,
 * {@code journal verify --acknowledge}; the acknowledgement file is re-read at most once a second,
 * and only when it changed, so a release takes effect without a restart.
 */
final class DamageHold {

    private static final long RECHECK_NANOS = 1_000_000_000L;

    private final Path dir;
    private final Supplier<List<RecordDamage>> damage;
    private volatile Set<String> acknowledged;
    private volatile long stamp;
    private volatile long checkedAt;

    DamageHold(Path dir, Supplier<List<RecordDamage>> damage) {
        this.dir = dir;
        this.damage = damage;
        this.stamp = DamageAcknowledgements.stamp(dir);
        this.acknowledged = DamageAcknowledgements.read(dir);
        this.checkedAt = System.nanoTime();
    }

    /** Why an effectful call of {@code task} must not run now; empty when nothing holds it. */
    Optional<String> holdFor(String task, String intentKey) {
        List<RecordDamage> all = damage.get();
        if (all.isEmpty()) {
            return Optional.empty(); // the hot path: a sound journal costs one list read
        }
        Set<String> acks = acknowledgements();
        RecordDamage whose = null;
        for (RecordDamage d : all) {
            if (acks.contains(d.id()) || d.torn()) {
                continue; // a torn record: its possible intents are without an outcome, held or probed as a crash
            }
            if (!d.attributed()) {
                return Optional.of("held: the journal has a damaged record whose task cannot be read ("
                        + d.describe() + "), so it may be this call's earlier attempt; every effectful call is held,"
                        + " body not run, until a person checks and acknowledges it: " + commands());
            }
            if (whose == null && (task != null && task.equals(d.task()) || intentKey != null && intentKey.equals(d.key()))) {
                whose = d;
            }
        }
        if (whose == null) {
            return Optional.empty();
        }
        return Optional.of("held: a journal record of this task is damaged (" + whose.describe() + "); what it said is"
                + " not guessed, so this task's effectful calls are held, body not run, until a person checks and"
                + " acknowledges it: " + commands());
    }

    /** True while a damaged record nobody acknowledged is known. */
    boolean unacknowledged() {
        List<RecordDamage> all = damage.get();
        if (all.isEmpty()) {
            return false;
        }
        Set<String> acks = acknowledgements();
        return all.stream().anyMatch(d -> !acks.contains(d.id()) && !d.torn());
    }

    private String commands() {
        return "java -jar effectful-agent.jar journal --dir " + dir + " verify, then ... verify --acknowledge";
    }

    private Set<String> acknowledgements() {
        long now = System.nanoTime();
        if (now - checkedAt >= RECHECK_NANOS) {
            checkedAt = now;
            long s = DamageAcknowledgements.stamp(dir);
            if (s != stamp) {
                stamp = s;
                acknowledged = DamageAcknowledgements.read(dir);
            }
        }
        return acknowledged;
    }
}
