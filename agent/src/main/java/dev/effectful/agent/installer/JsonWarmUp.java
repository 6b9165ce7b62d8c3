package dev.effectful.agent.installer;

import dev.effectful.runtime.engine.EngineFactory;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Loads Jackson in the background once the engine is open, if a woven tool takes or returns values
 * the engine cannot write without it. The engine's start and calls of strings, integers and booleans
 * never load Jackson's several hundred classes (they would compete with the application's start for
 * the cores); a tool taking a record or returning a list would load them on its first call, on the
 * caller's thread. Warming them after the start, on a low-priority thread, keeps both cheap.
 */
final class JsonWarmUp {

    private static final Set<String> PLAIN_OBJECTS = Set.of("java/lang/String", "java/lang/Integer", "java/lang/Long",
            "java/lang/Short", "java/lang/Byte", "java/lang/Boolean");
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile boolean needed;
    private static volatile boolean engineOpen;

    private JsonWarmUp() {
    }

    /** A tool method with this JVM descriptor was woven. */
    static void toolWoven(String descriptor) {
        if (!needed && !plain(descriptor)) {
            needed = true;
            startIfDue();
        }
    }

    /** The engine is open: any warm-up now runs beside calls, not before the first. */
    static void engineOpened() {
        engineOpen = true;
        startIfDue();
    }

    /**
     * Whether every parameter and the return type are ones the engine writes without Jackson
     * ({@code JsonText.isSimple}): strings, the integer primitives and their boxes, booleans, void.
     */
    static boolean plain(String descriptor) {
        int i = 0;
        while (i < descriptor.length()) {
            char c = descriptor.charAt(i);
            switch (c) {
                case '(', ')', 'B', 'S', 'I', 'J', 'Z', 'V' -> i++;
                case 'L' -> {
                    int end = descriptor.indexOf(';', i);
                    if (end < 0 || !PLAIN_OBJECTS.contains(descriptor.substring(i + 1, end))) {
                        return false;
                    }
                    i = end + 1;
                }
                default -> {
                    return false;
                }
            }
        }
        return true;
    }

    private static void startIfDue() {
        if (needed && engineOpen && STARTED.compareAndSet(false, true)) {
            // a class, not a method reference: the first lambda of a cold JVM costs tens of milliseconds
            Thread t = new Thread(new Runnable() {
                @Override
                public void run() {
                    EngineFactory.warmUpJson();
                }
            }, "effectful-json-warmup");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.setContextClassLoader(JsonWarmUp.class.getClassLoader());
            t.start();
        }
    }
}
