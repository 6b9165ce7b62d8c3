package dev.effectful.agent.reliability;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;

/**
 * The campaign's ledger: a separate JVM on loopback that the runner never kills, so it outlives
 * every workload and counts each effect by verb, reference and the intent key that asked for it.
 *
 * <pre>
 * POST /effect/VERB?ref=R&amp;key=K&amp;mode=count  apply (every hit is an effect)
 *                            mode=set    apply once per reference: a repeat changes nothing (an idempotent write)
 *                            mode=keyed  deduplicate on the Idempotency-Key header (a keyable create)
 *                            mode=header as keyed, but 400 unless the header is there and equals K (the agent
 *                                        puts the intent key in it; the tool sets no header itself)
 * GET  /effect/VERB?ref=R                   probe: 200 when applied, 404 otherwise
 * GET  /read/VERB?ref=R                     a read; no effect
 * GET  /dump                                one line per VERB REF: hits, applied, the intent keys of the hits
 * POST /stop                                write the dump file and exit
 * </pre>
 *
 * {@code java LedgerProcess PORT_FILE DUMP_FILE [BIND_ADDRESS]}: the port is written to PORT_FILE once listening;
 * it listens on loopback unless BIND_ADDRESS is given (the fleet campaign's hosts in network namespaces of
 * their own reach it at their link's gateway address).
 */
public final class LedgerProcess {

    private record Entry(int hits, int applied, List<String> keys) {
    }

    private final Map<String, Entry> entries = new TreeMap<>();
    private final Set<String> idempotencyKeys = new HashSet<>();
    private final Map<String, Integer> reads = new HashMap<>();
    private final Path dumpFile;
    private final CountDownLatch stop = new CountDownLatch(1);

    private LedgerProcess(Path dumpFile) {
        this.dumpFile = dumpFile;
    }

    public static void main(String[] args) throws Exception {
        // The JDK server closes a keep-alive connection idle for 30 s, while the JDK client keeps it pooled for
        // 1200 s: a POST that takes such a connection from the pool as the close arrives is cut, a lost answer
        // the ledger made, not the workload. Never closing idle connections while a run lasts rules that out.
        System.setProperty("sun.net.httpserver.idleInterval", "86400");
        Path portFile = Path.of(args[0]);
        LedgerProcess ledger = new LedgerProcess(Path.of(args[1]));
        InetAddress bind = args.length > 2 ? InetAddress.getByName(args[2]) : InetAddress.getLoopbackAddress();
        HttpServer server = HttpServer.create(new InetSocketAddress(bind, 0), 256);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", ledger::handle);
        server.start();
        Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
        Files.writeString(tmp, Integer.toString(server.getAddress().getPort()));
        Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
        ledger.stop.await();
        ledger.writeDump();
        server.stop(0);
        System.exit(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String[] path = ex.getRequestURI().getPath().split("/");
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            String method = ex.getRequestMethod();
            if (path.length == 3 && path[1].equals("effect") && method.equals("POST")) {
                String idem = ex.getRequestHeaders().getFirst("Idempotency-Key");
                if ("header".equals(q.get("mode")) && (idem == null || !idem.equals(q.get("key")))) {
                    // kept in the dump as its own verb, so the verdict sees a key that did not travel
                    apply("no_key_header", path[2] + ":" + q.get("ref"), q.getOrDefault("key", "-"), "count", null);
                    respond(ex, 400, "Idempotency-Key " + (idem == null ? "missing" : idem + " is not the intent key " + q.get("key")));
                    return;
                }
                respond(ex, 200, apply(path[2], q.get("ref"), q.getOrDefault("key", "-"), q.getOrDefault("mode", "count"), idem));
            } else if (path.length == 3 && path[1].equals("effect")) {
                String found = find(path[2], q.get("ref"));
                respond(ex, found == null ? 404 : 200, found == null ? "not found" : found);
            } else if (path.length == 3 && path[1].equals("read")) {
                synchronized (this) {
                    reads.merge(path[2], 1, Integer::sum);
                }
                respond(ex, 200, "price:" + q.get("ref"));
            } else if (path.length == 2 && path[1].equals("dump")) {
                respond(ex, 200, writeDump());
            } else if (path.length == 2 && path[1].equals("stop")) {
                respond(ex, 200, "stopping");
                stop.countDown();
            } else {
                respond(ex, 404, "no such endpoint");
            }
        }
    }

    private synchronized String apply(String verb, String ref, String key, String mode, String idem) {
        String id = verb + " " + ref;
        Entry e = entries.getOrDefault(id, new Entry(0, 0, List.of()));
        boolean applies = switch (mode) {
            case "set" -> e.applied() == 0;
            case "keyed", "header" -> idem == null || idempotencyKeys.add(idem);
            default -> true;
        };
        List<String> keys = new ArrayList<>(e.keys());
        keys.add(key);
        entries.put(id, new Entry(e.hits() + 1, e.applied() + (applies ? 1 : 0), keys));
        return "done:" + verb + ":" + ref;
    }

    private synchronized String find(String verb, String ref) {
        Entry e = entries.get(verb + " " + ref);
        return e == null || e.applied() == 0 ? null : "done:" + verb + ":" + ref;
    }

    /** VERB REF HITS APPLIED KEY,KEY... one line each; also written to the dump file. */
    private synchronized String writeDump() throws IOException {
        StringBuilder s = new StringBuilder();
        entries.forEach((id, e) -> s.append(id).append(' ').append(e.hits()).append(' ').append(e.applied()).append(' ')
                .append(String.join(",", e.keys())).append('\n'));
        Path tmp = dumpFile.resolveSibling(dumpFile.getFileName() + ".tmp");
        Files.writeString(tmp, s);
        Files.move(tmp, dumpFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return s.toString();
    }

    private static void respond(HttpExchange ex, int code, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(code, b.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(b);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    q.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return q;
    }
}
