package dev.effectful.agent.fleet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One network namespace per fleet host, so the hosts share no loopback: each reaches the database
 * and the ledger only through its own virtual link to the test's namespace, at that link's gateway
 * address, as separate machines would. Needs root and {@code ip}; where either is missing the
 * hosts share the machine's loopback (and the test says so).
 */
final class HostNetworks implements AutoCloseable {

    /** Host name to its namespace and link number. */
    private final Map<String, Integer> links = new LinkedHashMap<>();
    private final String prefix = "eff" + ProcessHandle.current().pid() % 100_000;

    private HostNetworks() {
    }

    static Optional<HostNetworks> createIfPossible(List<String> hosts) {
        if (!"root".equals(System.getProperty("user.name")) || !new java.io.File("/usr/sbin/ip").canExecute()
                && !new java.io.File("/sbin/ip").canExecute()) {
            return Optional.empty();
        }
        removeStale();
        HostNetworks n = new HostNetworks();
        try {
            int i = 1;
            for (String h : hosts) {
                n.add(h, i++);
            }
            for (String h : hosts) {
                n.checkReach(h);
            }
            return Optional.of(n);
        } catch (IOException | RuntimeException e) {
            n.close();
            System.out.println("network namespaces not available here (" + e.getMessage() + "); hosts share loopback");
            return Optional.empty();
        }
    }

    /**
     * Deletes the namespaces of campaigns whose JVM is gone (killed before its {@link #close}): their links keep
     * the same gateway addresses, and a second link with the address makes this run's hosts unreachable.
     */
    private static void removeStale() {
        try {
            Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(20, TimeUnit.SECONDS);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^(eff(\\d+)-\\w+)").matcher(out);
            while (m.find()) {
                long pid = Long.parseLong(m.group(2));
                boolean ours = ProcessHandle.allProcesses().anyMatch(h -> h.pid() % 100_000 == pid && h.isAlive());
                if (!ours) {
                    run("ip", "netns", "del", m.group(1));
                    System.out.println("removed the network namespace " + m.group(1) + " of a campaign that is gone");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            System.out.println("could not look for stale network namespaces: " + e.getMessage());
        }
    }

    private void add(String host, int i) throws IOException {
        String ns = namespace(host);
        String outside = prefix + "h" + i;
        String inside = prefix + "n" + i;
        run("ip", "netns", "add", ns);
        links.put(host, i);
        run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside);
        run("ip", "link", "set", inside, "netns", ns);
        run("ip", "addr", "add", gateway(host) + "/30", "dev", outside);
        run("ip", "link", "set", outside, "up");
        run("ip", "netns", "exec", ns, "ip", "addr", "add", "10.213." + i + ".2/30", "dev", inside);
        run("ip", "netns", "exec", ns, "ip", "link", "set", inside, "up");
        run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
    }

    /**
     * Proves {@code host}'s namespace reaches the test's side of its link: a TCP connection from inside it to a
     * listener on the gateway. A machine whose firewall or container forbids the link (a CI runner can) would
     * otherwise leave every host's store unreachable, each call refused until its task's deadline, and the
     * campaign crawling instead of failing; there the hosts share loopback instead, and the test says why. A
     * fresh link takes a moment to come up, so the inside tries again until the outside's bound.
     */
    private void checkReach(String host) throws IOException {
        try (java.net.ServerSocket listener = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(gateway(host)))) {
            listener.setSoTimeout(10_000);
            String target = "/dev/tcp/" + gateway(host) + "/" + listener.getLocalPort();
            Process p = new ProcessBuilder("ip", "netns", "exec", namespace(host), "timeout", "8", "bash", "-c",
                    "until (exec 3<>" + target + ") 2>/dev/null; do sleep 0.1; done").redirectErrorStream(true).start();
            try (java.net.Socket ignored = listener.accept()) {
                // reached
            } catch (java.net.SocketTimeoutException e) {
                throw new IOException("from namespace " + namespace(host) + " nothing reached " + gateway(host)
                        + " within 10 s (a firewall or the container's network forbids the link)");
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /** The address, in the test's namespace, by which {@code host} reaches the database and the ledger. */
    String gateway(String host) {
        return "10.213." + links.get(host) + ".1";
    }

    List<String> gateways() {
        List<String> out = new ArrayList<>();
        links.keySet().forEach(h -> out.add(gateway(h)));
        return out;
    }

    /** The command that runs a process inside {@code host}'s namespace (it execs: same pid). */
    String[] enter(String host) {
        return new String[] {"ip", "netns", "exec", namespace(host)};
    }

    private String namespace(String host) {
        return prefix + "-" + host;
    }

    @Override
    public void close() {
        for (String h : links.keySet()) {
            try {
                run("ip", "netns", "del", namespace(h)); // takes its end of the link, and so the link, with it
            } catch (IOException | RuntimeException e) {
                System.out.println("could not remove network namespace " + namespace(h) + ": " + e.getMessage());
            }
        }
        links.clear();
    }

    private static void run(String... cmd) throws IOException {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("timed out: " + String.join(" ", cmd));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", cmd) + " failed: " + out.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
    }
}
