package dev.effectful.runtime.engine;

import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.LocalIntentIndex;
import dev.effectful.core.store.IntentStoreProvider;
import dev.effectful.core.store.StoreKeys;
import dev.effectful.core.store.StoreSettings;
import dev.effectful.core.store.StoreView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An engine owns the background threads it starts (retention sweeper, index checkpoints, resolution
 * watch, deadline watchdog, and a shared store's lease renewer) and closing it ends them all. The
 * shared store here is found the way the agent finds PostgreSQL's: through the store service, by a
 * provider this test registers for {@code effectful.store=threaded}.
 */
class EngineCloseTest {

    @TempDir
    Path dir;

    @Test
    void closingTheEngineEndsEveryThreadItStarted() {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        EffectfulConfig config = EffectfulConfig.load("journal=" + dir.resolve("journal")
                + ",store=threaded");
        assertThat(config.store().kind()).isEqualTo("threaded");

        CallEngine engine = EngineFactory.create(config);
        assertThat(engine.store()).as("the provider found through the service").isInstanceOf(ThreadedStore.class);
        Set<Thread> started = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.getName().startsWith("effectful-"))
                .collect(Collectors.toSet());
        assertThat(started).extracting(Thread::getName).contains("effectful-retention", "effectful-checkpoint",
                "effectful-resolutions", "effectful-deadline", "effectful-test-store");

        engine.close();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(started).filteredOn(Thread::isAlive).extracting(Thread::getName).isEmpty());
        engine.close(); // twice is harmless
    }

    /** Registered in META-INF/services of the runtime's tests. */
    public static final class ThreadedStoreProvider implements IntentStoreProvider {
        @Override
        public String kind() {
            return "threaded";
        }

        @Override
        public java.util.List<String> keys() {
            return java.util.List.of();
        }

        @Override
        public StoreSettings configure(StoreKeys keys) {
            return () -> "a test store";
        }

        @Override
        public IntentStore open(dev.effectful.core.store.StoreContext context, LocalIntentIndex local) {
            return new ThreadedStore(local);
        }

        @Override
        public StoreView openView(StoreSettings settings) {
            throw new UnsupportedOperationException();
        }
    }

    /** Decides locally and runs a thread, as a shared store's lease renewer does, until closed. */
    static final class ThreadedStore extends OverLocalIndex implements AutoCloseable {
        private final Thread renewer;
        private volatile boolean closed;

        ThreadedStore(LocalIntentIndex local) {
            super(local);
            this.renewer = new Thread(() -> {
                while (!closed) {
                    LockSupport.parkNanos(50_000_000L);
                }
            }, "effectful-test-store");
            renewer.setDaemon(true);
            renewer.start();
        }

        @Override
        public void close() {
            closed = true;
            renewer.interrupt();
        }
    }
}
