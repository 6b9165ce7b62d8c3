package dev.effectful.demo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the assistant as a child JVM (same java, same flags, same agent, same journal) and, in
 * the first act, kills it with a real {@code kill -9} while its charge is in flight: no shutdown
 * hook, no finally block, no flush. Every child it starts is waited for or killed before it returns.
 */
final class CrashAct {

    private final String agentJar;
    private final Path journal;
    private final String service;
    private final Path transcript;
    final List<Long> pids = new ArrayList<>();

    CrashAct(String agentJar, Path journal, String service, Path transcript) {
        this.agentJar = agentJar;
        this.journal = journal;
        this.service = service;
        this.transcript = transcript;
    }

    /** The -javaagent argument of this JVM, if it carries the Effectful agent. */
    static String agentJarOfThisJvm() {
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("-javaagent:") && arg.contains("effectful-agent")) {
                String spec = arg.substring("-javaagent:".length());
                int eq = spec.indexOf('=');
                return eq < 0 ? spec : spec.substring(0, eq);
            }
        }
        return null;
    }

    Process start(String taskId, String act) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // the child gets this JVM's flags, but the agent and the journal only as the demo's mode says
            if (!arg.startsWith("-javaagent:") && !arg.startsWith("-Deffectful.journal.dir=")) {
                cmd.add(arg);
            }
        }
        if (agentJar != null) {
            cmd.add("-javaagent:" + agentJar);
            // an agent on the boot class path makes the JVM warn about class-data sharing on every start
            cmd.add("-Xshare:off");
        }
        cmd.add("-Deffectful.journal.dir=" + journal);
        cmd.add("-cp");
        cmd.add(DemoMain.demoJar());
        cmd.add(AssistantMain.class.getName());
        cmd.add(service);
        cmd.add(taskId);
        cmd.add(act);
        cmd.add(transcript.toString());
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        pids.add(p.pid());
        return p;
    }

    /** Waits up to the timeout, then makes sure the child is gone; returns its exit code or -1. */
    static int finish(Process p, long seconds) throws InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            return -1;
        }
        return p.exitValue();
    }

    /** A real SIGKILL from outside, as an OOM killer or a node failure would deliver it. */
    static void kill9(Process p) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-9", Long.toString(p.pid())).inheritIO().start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            p.destroyForcibly(); // no kill(1) here: Process.destroyForcibly is SIGKILL on Unix too
        }
        p.waitFor(10, TimeUnit.SECONDS);
    }
}
