package dev.effectful.agent.fleet;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.Completion;
import dev.effectful.runtime.engine.EngineFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * Cost of one guarded call (a new intent: decide and claim, intent record, body, outcome record)
 * with the local store and with PostgreSQL on loopback, through the real engine and a real
 * journal. Starts its own PostgreSQL server (as {@link PostgresServer} does for the tests).
 *
 * <pre>java [chronicle flags] -cp agent/target/test-classes:... dev.effectful.agent.fleet.FleetBench [calls]</pre>
 * Prints one JSON line shaped like bench/results.json's {@code per_call} section.
 */
public final class FleetBench {

    public static class Tools {
        @EffectfulTool(kind = EffectKind.CREATE, name = "book")
        public String book(@IntentKey String id) {
            return "booked:" + id;
        }
    }

    private static final String BOOK = "book(Ljava/lang/String;)Ljava/lang/String;";

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        String local = measure("local", EffectfulConfig.Store.LOCAL, calls);
        String postgres = postgres(true, calls);
        String noFsync = postgres(false, calls);
        System.out.println("{\"per_call\":{\"effectful_local\":" + local + ",\"effectful_postgres\":" + postgres
                + ",\"effectful_postgres_fsync_off\":" + noFsync + "}}");
        System.exit(0);
    }

    private static String postgres(boolean fsync, int calls) throws Exception {
        try (PostgresServer pg = PostgresServer.start(fsync)) {
            return measure("postgres", new EffectfulConfig.Store("postgres", new dev.effectful.store.postgres.PostgresSettings(
                    pg.url(), PostgresServer.USER, PostgresServer.PASSWORD, Duration.ofSeconds(30), Duration.ofSeconds(5))), calls);
        }
    }

    private static String measure(String name, EffectfulConfig.Store store, int calls) throws Exception {
        Path dir = Files.createTempDirectory("bench-" + name);
        EffectfulConfig cfg = EffectfulConfig.builder(dir).logLevel(EffectfulConfig.LogLevel.WARN).store(store)
                .build();
        CallEngine engine = EngineFactory.create(cfg);
        Tools tools = new Tools();
        int warmup = Math.max(500, calls / 2);
        long[] nanos = new long[calls];
        try (Task t = Task.open("bench-" + name, Duration.ofHours(1))) {
            for (int i = 0; i < warmup + calls; i++) {
                String id = "id-" + i;
                long t0 = System.nanoTime();
                Object h = engine.enter(Tools.class, BOOK, tools, new Object[] {id});
                Object r = engine.skipBody(h) ? null : tools.book(id);
                Completion c = engine.exit(h, r, null);
                long dt = System.nanoTime() - t0;
                if (c.thrown() != null) {
                    throw new IllegalStateException(name + ": call " + i + " failed: " + c.thrown().getMessage());
                }
                if (i >= warmup) {
                    nanos[i - warmup] = dt;
                }
            }
        }
        Arrays.sort(nanos);
        return String.format(Locale.ROOT, "{\"calls\":%d,\"median_us\":%.1f,\"p99_us\":%.1f}", calls,
                nanos[calls / 2] / 1000.0, nanos[(int) (calls * 0.99)] / 1000.0);
    }
}
