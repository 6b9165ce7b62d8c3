package dev.effectful.bench;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * Run in its own JVM with the agent over a given journal: serves one tool call as early as it can,
 * prints when (relative to JVM start), then the heap in use after full collections, then waits for
 * a line on stdin so the parent can take a class histogram of the live heap.
 */
public final class RecoveryProbe {

    private RecoveryProbe() {
    }

    public static void main(String[] args) throws Exception {
        long mainMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        MailTools tools = new MailTools();
        long before = System.nanoTime();
        int refusals = 0;
        // the first call waits for the engine (index rebuild) a bounded time and is refused after
        // it; a caller would retry, so the time to the first call served counts the refusals too
        while (true) {
            try (Task t = Task.open("recovery-probe-" + ProcessHandle.current().pid(), Duration.ofMinutes(5))) {
                tools.sendEmail("first-call@example.com", MailTools.SUBJECT, 3);
                break;
            } catch (ToolOutcomeException e) {
                if (++refusals >= 10) {
                    throw e;
                }
                System.out.println("REFUSED after_ms=" + (System.nanoTime() - before) / 1_000_000 + " " + e.getMessage());
            }
        }
        long callMs = (System.nanoTime() - before) / 1_000_000;
        long servedMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        System.out.println("SERVED since_jvm_start_ms=" + servedMs + " main_at_ms=" + mainMs + " first_call_ms=" + callMs + " refusals=" + refusals);
        if (!tools.agentActive()) {
            System.out.println("NO-AGENT");
        }
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(50);
        }
        System.out.println("HEAP used=" + ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        System.out.flush();
        System.in.read();
    }
}
