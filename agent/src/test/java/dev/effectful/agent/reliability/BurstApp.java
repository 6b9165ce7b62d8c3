package dev.effectful.agent.reliability;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A burst of large calls onto a small disk (agent attached): {@code -Dthreads} threads call a MONEY tool
 * with about 0.4 MB of arguments and a 1 MB result each (about 1.4 MB of journal per call), {@code -Dcalls}
 * calls in all, as fast as they can. {@code -Dsmall=true} repeats the same intents with small arguments
 * (after a restart). Prints one line per call and per body run:
 *
 * <pre>CALL id ok|THROWN {outcome json}
 * BODY id</pre>
 */
public final class BurstApp {

    static final ConcurrentHashMap<String, Boolean> RAN = new ConcurrentHashMap<>();

    /** A tool whose effect is in-process: the fault here is the disk's. */
    public static class Tools {
        @EffectfulTool(kind = EffectKind.MONEY, name = "archive")
        public String archive(@IntentKey String id, String a, String b, String c, String d, String e, String f) {
            System.out.println("BODY " + id);
            RAN.put(id, true);
            return Boolean.getBoolean("small") ? "archived " + id : "archived " + id + " " + "r".repeat(1_000_000);
        }
    }

    private BurstApp() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.getInteger("threads", 4);
        int calls = Integer.getInteger("calls", 40);
        String part = Boolean.getBoolean("small") ? "s" : "p".repeat(64_000);
        Tools tools = new Tools();
        AtomicInteger next = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        try (Task t = Task.open("burst", java.time.Duration.ofMinutes(10))) {
            for (int w = 0; w < threads; w++) {
                Thread worker = new Thread(Task.wrap(() -> {
                    for (int n = next.incrementAndGet(); n <= calls; n = next.incrementAndGet()) {
                        String id = "c-" + n;
                        String line;
                        try {
                            String r = tools.archive(id, part, part, part, part, part, part);
                            line = r.startsWith("archived " + id) ? "ok" : "WRONG " + r.substring(0, Math.min(60, r.length()));
                        } catch (ToolOutcomeException e) {
                            line = "THROWN " + e.getMessage();
                        } catch (Throwable e) {
                            line = "RAW " + e;
                        }
                        System.out.println("CALL " + id + " " + line);
                    }
                }), "burst-" + w);
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
        }
        System.out.println("DONE");
    }
}
