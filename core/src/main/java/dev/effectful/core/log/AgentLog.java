package dev.effectful.core.log;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's log. Under the agent ({@link #configureForApplication}) its lines go through the
 * application's own SLF4J, wherever that lives: the class path, Spring Boot's launcher loader, a
 * web application's loader. That loader is only known once the application runs, so it is looked
 * for at each guarded call ({@link #lookForApplicationLog(Class)}), from the tool class's loader and
 * the thread's context loader, and never from premain: initialising the application's logging early
 * would change its start-up. Until it is found, lines go to the fallback (stderr, warnings and up by
 * default) and the last {@link PendingLines#CAPACITY} are kept, to be replayed into the application's
 * log when it turns up. Elsewhere (the CLI, tests, the kit) {@link #configure} names one sink.
 */
public final class AgentLog {

    private static volatile Supplier<LogSink> factory = () -> new StderrSink(System.err, LogSink.Level.WARN);
    /** Where lines go: the configured sink once made, or the application's once found; null before. */
    private static volatile LogSink sink;
    /** Non-null while the application's log is looked for. */
    private static volatile Search search;
    private static volatile LogSink.Level threshold = LogSink.Level.INFO;
    private static final Set<String> ONCE = ConcurrentHashMap.newKeySet();

    private AgentLog() {
    }

    /** One sink for every line, made on first use; {@code level}: lines below it are dropped. */
    public static void configure(Supplier<LogSink> sinkFactory, LogSink.Level level) {
        synchronized (AgentLog.class) {
            factory = sinkFactory;
            threshold = level;
            search = null;
            sink = null;
        }
    }

    /**
     * Lines go to the application's SLF4J under {@code loggerName} once a guarded call finds it; to
     * {@code fallback} (and kept, to be replayed) until then, and for good if none is ever found.
     */
    public static void configureForApplication(String loggerName, LogSink fallback, LogSink.Level level) {
        configureSearch(loader -> Slf4jSink.find(loader, loggerName), fallback, level);
    }

    /** As {@link #configureForApplication}, asking {@code finder} what each class loader offers. */
    static void configureSearch(Function<ClassLoader, Slf4jSink.Lookup> finder, LogSink fallback, LogSink.Level level) {
        synchronized (AgentLog.class) {
            factory = () -> fallback;
            threshold = level;
            search = new Search(finder, fallback);
            sink = null;
        }
    }

    /**
     * At a guarded call of {@code toolClass}: when the application's log is not found yet, asks the
     * tool class's loader and the thread's context loader for it (once per loader that has none).
     * One volatile read once it is found; never throws.
     */
    public static void lookForApplicationLog(Class<?> toolClass) {
        Search s = search;
        if (s == null) {
            return;
        }
        try {
            ClassLoader own = toolClass == null ? null : toolClass.getClassLoader();
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            boolean later = look(s, own);
            if (sink == null && context != own) {
                later |= look(s, context);
            }
            if (sink == null && !later) {
                // this call's application has no SLF4J: lines below the fallback's level stop being kept,
                // so such an application does not build every call's INFO line for nobody
                s.keepAll = false;
            }
        } catch (RuntimeException | LinkageError e) {
            // whatever the application's loaders do, its call goes on
        }
    }

    /** As {@link #lookForApplicationLog(Class)} for one loader: an attach finds the application running. */
    public static void lookForApplicationLog(ClassLoader loader) {
        Search s = search;
        if (s != null) {
            try {
                look(s, loader);
            } catch (RuntimeException | LinkageError e) {
                // the next call looks again
            }
        }
    }

    /** True when {@code loader} may offer a log later (SLF4J was initialising). */
    private static boolean look(Search s, ClassLoader loader) {
        Slf4jSink.Lookup found = s.ask(loader);
        if (found instanceof Slf4jSink.Bound b) {
            adopt(s, b.sink());
            return false;
        }
        return found instanceof Slf4jSink.NotYet;
    }

    /** The application's log is found: what was kept goes there first, then every line. */
    private static void adopt(Search s, LogSink found) {
        synchronized (AgentLog.class) {
            if (search != s) {
                return; // found by another call, or reconfigured meanwhile
            }
            PendingLines.Dropped dropped = s.pending.dropped();
            if (dropped.count() > 0) {
                LogSink.Level level = dropped.worst().ordinal() < LogSink.Level.WARN.ordinal()
                        ? LogSink.Level.WARN : dropped.worst();
                found.log(level, "effectful: " + dropped.count() + " earlier lines were dropped before the"
                        + " application's log was found; the last " + s.pending.lines().size() + " follow", null);
            }
            for (PendingLines.Line l : s.pending.lines()) {
                found.log(l.level(), l.message(), l.error());
            }
            sink = found;
            search = null;
        }
    }

    /** Whether a line at {@code level} would go anywhere: callers skip building one nobody sees. */
    public static boolean isEnabled(LogSink.Level level) {
        if (level.ordinal() > threshold.ordinal()) {
            return false;
        }
        LogSink s = sink;
        if (s != null) {
            return s.isEnabled(level);
        }
        Search q = search;
        if (q != null) {
            return q.accepts(level);
        }
        s = madeSink();
        return s != null ? s.isEnabled(level) : isEnabled(level);
    }

    public static void error(String message, Throwable t) {
        log(LogSink.Level.ERROR, message, t);
    }

    public static void warn(String message) {
        log(LogSink.Level.WARN, message, null);
    }

    public static void info(String message) {
        log(LogSink.Level.INFO, message, null);
    }

    public static void debug(String message) {
        log(LogSink.Level.DEBUG, message, null);
    }

    /** Says something once per process per key: a warning repeated on every call would be noise. */
    public static void warnOnce(String key, String message) {
        if (ONCE.add(key)) {
            warn(message);
        }
    }

    /** An internal failure that disabled part of the agent: said once, loudly, on stderr too. */
    public static void errorOnce(String key, String message, Throwable t) {
        if (ONCE.add(key)) {
            LogSink went = write(LogSink.Level.ERROR, PrintableText.escape(message), t);
            if (!(went instanceof StderrSink)) {
                System.err.println("effectful ERROR: " + PrintableText.escape(message
                        + (t == null ? "" : " (" + t + ")")));
            }
        }
    }

    private static void log(LogSink.Level level, String message, Throwable t) {
        if (level.ordinal() > threshold.ordinal()) {
            return;
        }
        // messages quote task ids, tool names and exception text: one line each, whatever they hold
        write(level, PrintableText.escape(message), t);
    }

    /** Writes one line; returns the sink that took it now (the fallback while the search goes on). */
    private static LogSink write(LogSink.Level level, String message, Throwable t) {
        while (true) {
            LogSink s = sink;
            if (s == null) {
                Search q = search;
                if (q != null) {
                    LogSink fallback = keep(q, level, message, t);
                    if (fallback != null) {
                        fallback.log(level, message, t); // stderr outside the lock: a slow terminal blocks no one else
                        return fallback;
                    }
                    continue; // the application's log was found meanwhile
                }
                s = madeSink();
                if (s == null) {
                    continue; // a search began meanwhile
                }
            }
            s.log(level, message, t);
            return s;
        }
    }

    /** Keeps the line for the replay; null when the search ended before it could be kept. */
    private static LogSink keep(Search q, LogSink.Level level, String message, Throwable t) {
        synchronized (AgentLog.class) {
            if (search != q) {
                return null;
            }
            if (q.accepts(level)) {
                q.pending.add(level, message, t);
            }
            return q.fallback;
        }
    }

    /** The configured sink, made on first use; null while a search runs (its fallback takes the lines). */
    private static LogSink madeSink() {
        synchronized (AgentLog.class) {
            if (sink == null && search == null) {
                try {
                    sink = factory.get();
                } catch (RuntimeException | LinkageError e) {
                    sink = new StderrSink(System.err, LogSink.Level.WARN);
                }
            }
            return sink;
        }
    }

    /** The look-up of the application's log while it is not found, and the lines kept for it. */
    private static final class Search {
        private static final Slf4jSink.Lookup NONE = new Slf4jSink.Absent();

        private final Function<ClassLoader, Slf4jSink.Lookup> finder;
        private final LogSink fallback;
        private final PendingLines pending = new PendingLines();
        /** Loaders that have no SLF4J, asked once each; weak, so a redeployed application's loader can go. */
        private final Map<ClassLoader, Boolean> without = Collections.synchronizedMap(new WeakHashMap<>());
        /** Lines below the fallback's level are kept too, until a call's loaders had no log to offer. */
        private volatile boolean keepAll = true;

        Search(Function<ClassLoader, Slf4jSink.Lookup> finder, LogSink fallback) {
            this.finder = finder;
            this.fallback = fallback;
        }

        Slf4jSink.Lookup ask(ClassLoader loader) {
            // the agent's own loader holds the agent's SLF4J, whose only provider is the no-op one
            if (loader == null || loader == AgentLog.class.getClassLoader() || without.containsKey(loader)) {
                return NONE;
            }
            Slf4jSink.Lookup found = finder.apply(loader);
            if (found instanceof Slf4jSink.Absent) {
                without.put(loader, Boolean.TRUE);
            }
            return found;
        }

        boolean accepts(LogSink.Level level) {
            return keepAll || fallback.isEnabled(level);
        }
    }
}
