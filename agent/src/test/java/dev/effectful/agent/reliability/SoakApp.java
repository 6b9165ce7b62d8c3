package dev.effectful.agent.reliability;

import dev.effectful.Status;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The soak's application (agent attached, fast roll cycle, short retention): two threads call the
 * {@link SoakTools} without pause for {@code -Dsoak.seconds}, each in task sessions shorter than the
 * retention window: mostly new intents of every kind, some repeats of the session's earlier calls
 * (answered from the journal), now and then a send whose answer is lost (held for a person), and
 * between sessions a repeat of an earlier held intent, as an agent loop that keeps asking would.
 *
 * <p>Every {@code -Dsample.seconds} it prints, after {@code System.gc()}, what it can see from inside:
 * <pre>SAMPLE t=MS heap=BYTES files=CYCLE_FILES fds=OPEN_FDS maps=MAPPED_CQ4 calls=N</pre>
 * and at the end {@code TOTAL ...}, one {@code HELD task ref intent_key} per held intent, one {@code JDKLOST task
 * ref intent_key} per answer the JDK's client lost, {@code ALLDONE}.
 * An answer that breaks the rules (a repeat not ok, a held intent run again) is an {@code ODD} line.
 */
public final class SoakApp {

    private static final String[] VERBS = {"get_price", "set_address", "create_ticket", "create_order", "send_email",
            "send_sms", "charge_card", "delete_record"};

    record Held(String task, String ref, String key) {
    }

    private record Answer(Status status, String key, String message) {
    }

    private static final AtomicLong CALLS = new AtomicLong();
    private static final AtomicLong NEW_EFFECTS = new AtomicLong();
    private static final AtomicLong NEW_READS = new AtomicLong();
    private static final AtomicLong REPEATS = new AtomicLong();
    private static final AtomicLong HELD_REPEATS = new AtomicLong();
    private static final AtomicLong ODD = new AtomicLong();
    private static final List<Held> HELD = new CopyOnWriteArrayList<>();
    /** New effects whose answer the JDK's HttpClient itself lost (see {@link #lostByTheJdk}). */
    private static final List<Held> JDK_LOST = new CopyOnWriteArrayList<>();

    private SoakApp() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.getLong("soak.seconds", 600);
        long sampleMillis = Long.getLong("sample.seconds", 10) * 1000;
        long sessionMillis = Long.getLong("session.millis", 3000);
        long heldEveryMillis = Long.getLong("held.every.millis", 20_000);
        Path journal = Path.of(System.getProperty("journal.dir"));
        SoakTools tools = new SoakTools();
        System.out.println("READY");
        long t0 = System.currentTimeMillis();
        long end = t0 + seconds * 1000;
        Thread sampler = new Thread(() -> {
            try {
                for (long next = t0 + sampleMillis; ; next += sampleMillis) {
                    Thread.sleep(Math.max(0, next - System.currentTimeMillis()));
                    sample(t0, journal);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "soak-sampler");
        sampler.setDaemon(true);
        sampler.start();
        List<Thread> workers = new ArrayList<>();
        for (int w = 1; w <= 2; w++) {
            int id = w;
            Thread t = new Thread(() -> work(tools, id, end, sessionMillis, id == 1 ? heldEveryMillis : Long.MAX_VALUE),
                    "soak-worker-" + w);
            t.start();
            workers.add(t);
        }
        for (Thread t : workers) {
            t.join();
        }
        sampler.interrupt();
        sampler.join();
        sample(t0, journal);
        System.out.println("TOTAL calls=" + CALLS.get() + " new_effects=" + NEW_EFFECTS.get() + " new_reads="
                + NEW_READS.get() + " repeats=" + REPEATS.get() + " held=" + HELD.size() + " held_repeats="
                + HELD_REPEATS.get() + " odd=" + ODD.get());
        for (Held h : HELD) {
            System.out.println("HELD " + h.task() + " " + h.ref() + " " + h.key());
        }
        for (Held h : JDK_LOST) {
            System.out.println("JDKLOST " + h.task() + " " + h.ref() + " " + h.key());
        }
        System.out.println("ALLDONE");
    }

    private static void work(SoakTools tools, int w, long end, long sessionMillis, long heldEveryMillis) {
        Random rnd = new Random(20261130L + w);
        long nextHeld = heldEveryMillis == Long.MAX_VALUE ? Long.MAX_VALUE
                : System.currentTimeMillis() + Math.min(heldEveryMillis, 2000);
        for (int session = 1; System.currentTimeMillis() < end; session++) {
            String task = "w" + w + "-s" + session;
            List<String[]> made = new ArrayList<>();
            long sessionEnd = Math.min(end, System.currentTimeMillis() + sessionMillis);
            try (Task t = Task.open(task, Duration.ofMinutes(2))) {
                for (int n = 1; System.currentTimeMillis() < sessionEnd; n++) {
                    if (!made.isEmpty() && rnd.nextInt(10) < 3) {
                        String[] again = made.get(rnd.nextInt(made.size()));
                        Answer a = call(tools, again[0], again[1]);
                        REPEATS.incrementAndGet();
                        expect(a.status() == Status.OK, "repeat of " + task + " " + again[0] + " " + again[1], a);
                    } else if (System.currentTimeMillis() >= nextHeld) {
                        nextHeld = System.currentTimeMillis() + heldEveryMillis;
                        String ref = SoakTools.LOST + task + "." + n;
                        Answer a = call(tools, "send_sms", ref);
                        NEW_EFFECTS.incrementAndGet();
                        expect(a.status() == Status.UNKNOWN, "lost send " + task + " " + ref, a);
                        HELD.add(new Held(task, ref, a.key()));
                    } else {
                        String verb = VERBS[rnd.nextInt(VERBS.length)];
                        String ref = task + "." + n;
                        Answer a = call(tools, verb, ref);
                        (verb.equals("get_price") ? NEW_READS : NEW_EFFECTS).incrementAndGet();
                        if (lostByTheJdk(a)) {
                            JDK_LOST.add(new Held(task, ref, a.key()));
                            continue;
                        }
                        expect(a.status() == Status.OK, "new " + task + " " + verb + " " + ref, a);
                        made.add(new String[] {verb, ref});
                    }
                }
            }
            // between sessions the loop comes back to an earlier held intent: it must stay held, never run again
            if (!HELD.isEmpty()) {
                Held h = HELD.get(rnd.nextInt(HELD.size()));
                try (Task t = Task.open(h.task(), Duration.ofMinutes(2))) {
                    Answer a = call(tools, "send_sms", h.ref());
                    HELD_REPEATS.incrementAndGet();
                    expect(a.status() == Status.UNKNOWN && a.message() != null && a.message().contains("held"),
                            "repeat of held " + h.task() + " " + h.ref(), a);
                }
            }
        }
    }

    /**
     * The JDK 17 HttpClient can hand a reused connection's response to the pool's cleanup instead of the
     * exchange waiting for it (JDK-8338569, fixed in JDK 24): the ledger applied the effect, the client
     * closes the connection and the POST fails with "header parser received no bytes". That is a lost
     * answer, exactly what the agent exists for: it must say unknown, and the intent must stay listed
     * unresolved; the verdict checks both. Seen about once in 100,000 calls on a loaded 2-core machine.
     */
    private static boolean lostByTheJdk(Answer a) {
        return a.status() == Status.UNKNOWN && a.message() != null && a.message().contains("header parser received no bytes");
    }

    private static void expect(boolean fine, String what, Answer a) {
        if (!fine && ODD.incrementAndGet() <= 50) {
            System.out.println("ODD " + what + ": " + a);
        }
    }

    private static Answer call(SoakTools tools, String verb, String ref) {
        CALLS.incrementAndGet();
        try {
            switch (verb) {
                case "get_price" -> tools.getPrice(ref);
                case "set_address" -> tools.setAddress(ref);
                case "create_ticket" -> tools.createTicket(ref);
                case "create_order" -> tools.createOrder(ref);
                case "send_email" -> tools.sendEmail(ref);
                case "send_sms" -> tools.sendSms(ref);
                case "charge_card" -> tools.chargeCard(ref);
                case "delete_record" -> tools.deleteRecord(ref);
                default -> throw new IllegalArgumentException(verb);
            }
            return new Answer(Status.OK, null, null);
        } catch (ToolOutcomeException e) {
            return new Answer(e.outcome().status(), e.outcome().intentKey(), e.getMessage());
        } catch (Exception e) {
            return new Answer(null, null, e.toString());
        }
    }

    /** Used heap after a full collection, and what the journal holds on disk and in the process. */
    private static void sample(long t0, Path journal) {
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println("SAMPLE t=" + (System.currentTimeMillis() - t0) + " heap=" + heap + " files="
                + count(journal, ".cq4") + " fds=" + count(Path.of("/proc/self/fd"), "") + " maps=" + mappedCycles()
                + " calls=" + CALLS.get());
    }

    private static long count(Path dir, String suffix) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
        } catch (IOException e) {
            return -1;
        }
    }

    /** Distinct cycle files mapped into this process (deleted ones included): a leak shows here first. */
    private static long mappedCycles() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
            return lines.filter(l -> l.contains(".cq4") && !l.contains(".cq4t"))
                    .map(l -> l.substring(l.indexOf('/'))).distinct().count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
