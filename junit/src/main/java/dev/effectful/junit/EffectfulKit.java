package dev.effectful.junit;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The JUnit 5 kit: runs your real {@code @EffectfulTool} methods under the real Effectful engine, in
 * the test JVM (no {@code -javaagent}, no build configuration), injects the six failures where your
 * tool meets its receiver, and says what to change when the tool does not survive one.
 *
 * <pre>{@code
 * @RegisterExtension
 * final EffectfulKit kit = new EffectfulKit();
 *
 * @Test
 * void sendEmailSurvivesTheSixFailures() {
 *     List<String> sent = new CopyOnWriteArrayList<>();
 *     FakeHttpService mail = kit.httpService(req -> ...).errorAnswer("{\"error\":\"mailbox full\"}");
 *     kit.tool(MailTools.class, () -> new MailTools(mail.uri()))
 *        .call(t -> t.sendEmail("order-1", "Order confirmed"))
 *        .rephrased(t -> t.sendEmail("order-1", "Your order is confirmed"))
 *        .effects(sent::size)
 *        .faultsAt(mail)
 *        .run().assertPassed();
 * }
 * }</pre>
 *
 * <p>How it guards without an agent: {@link #guard} and every check call your tool through a
 * subclass view whose tool methods pass through the engine's enter / body / exit, the contract the
 * agent's advice keeps. The engine journals to a scratch file under a temporary directory, deleted
 * after each test. Nothing is printed: the engine's log lines are kept, not written. Nothing is left
 * behind either: each simulated process's engine is closed with its threads, a process that "died"
 * mid-call still lets go of the thread that ran it (no deadline alarm armed on the test thread), and an
 * agent in the test JVM is asked to stand aside for the kit's calls (none reach its journal).
 */
public final class EffectfulKit implements AfterEachCallback {

    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<KitProcess> processes = new ArrayList<>();
    private final KeyRelay keys = new KeyRelay();
    private Path root;

    public EffectfulKit() {
        QuietLog.install();
    }

    /** A loopback HTTP receiver played by {@code handler}; the kit injects its faults in front of it. */
    public synchronized FakeHttpService httpService(FakeHttpService.Handler handler) {
        try {
            FakeHttpService s = new FakeHttpService(handler, keys);
            open.add(s);
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException("effectful kit: cannot open a loopback port", e);
        }
    }

    /** Fault hooks for your own in-process fake: wrap its effect in {@link FakeHooks#around}. */
    public FakeHooks hooks() {
        return new FakeHooks();
    }

    /**
     * Starts the checks of a tool class; {@code factory} builds your tool as your application does
     * (it is called again after a simulated crash, as a restarted application would).
     */
    public <T> ToolCheck<T> tool(Class<T> type, Supplier<? extends T> factory) {
        return new ToolCheck<>(this, type, factory);
    }

    /**
     * Your tool object, guarded by the real engine over a scratch journal of its own: call it in a
     * {@code Task.open(...)} scope and see keys, dedup, classification and outcomes as in production.
     */
    public <T> T guard(T tool) {
        KitProcess process = register(KitProcess.start(scratchDir("guard-" + System.nanoTime())));
        return GuardedViews.guard(tool, () -> process, new CallLog(), keys);
    }

    /** The static audit of a tool class: one verdict per finding, a passing one per sound tool. */
    public List<Verdict> audit(Class<?> toolClass) {
        return ToolAudit.audit(toolClass);
    }

    synchronized Path scratchDir(String name) {
        try {
            if (root == null) {
                root = Files.createTempDirectory("effectful-kit");
            }
            return Files.createDirectories(root.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException("effectful kit: cannot make a scratch directory", e);
        }
    }

    /** Where the key headers of running key-header tools go onto this kit's services' requests. */
    KeyRelay keys() {
        return keys;
    }

    synchronized KitProcess register(KitProcess p) {
        processes.add(p);
        return p;
    }

    /** Closes the fake services and deletes the scratch journals of the test that just ran. */
    @Override
    public synchronized void afterEach(ExtensionContext context) {
        close();
    }

    /** The same as after each test, for use without registering the extension. */
    public synchronized void close() {
        for (AutoCloseable c : open) {
            try {
                c.close();
            } catch (Exception ignored) {
                // a fake that will not close leaks a loopback port until the JVM ends; nothing to report
            }
        }
        open.clear();
        for (KitProcess p : processes) {
            try {
                p.close();
            } catch (RuntimeException ignored) {
                // closed twice after a restart
            }
        }
        processes.clear();
        if (root != null) {
            try (Stream<Path> walk = Files.walk(root)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temp directory left behind is the OS's to clean
            }
            root = null;
        }
    }
}
