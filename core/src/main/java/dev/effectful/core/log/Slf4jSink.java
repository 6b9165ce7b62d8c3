package dev.effectful.core.log;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Logs through the application's own SLF4J binding, reached reflectively through one of the
 * application's class loaders: the agent's isolated copy of SLF4J has no binding, and the
 * application's configuration (levels, appenders, patterns) must apply to our lines as to its own.
 */
public final class Slf4jSink implements LogSink {

    private final Object logger;
    private final MethodHandle error;
    private final MethodHandle warn;
    private final MethodHandle info;
    private final MethodHandle debug;
    private final MethodHandle infoEnabled;
    private final MethodHandle debugEnabled;

    private Slf4jSink(Object logger, MethodHandle error, MethodHandle warn, MethodHandle info, MethodHandle debug,
                      MethodHandle infoEnabled, MethodHandle debugEnabled) {
        this.infoEnabled = infoEnabled;
        this.debugEnabled = debugEnabled;
        this.logger = logger;
        this.error = error;
        this.warn = warn;
        this.info = info;
        this.debug = debug;
    }

    /** What a class loader showed of SLF4J when asked. */
    public sealed interface Lookup {
    }

    /** A provider is bound: lines can go through it. */
    public record Bound(LogSink sink) implements Lookup {
    }

    /** No SLF4J, no provider, or only the NOP one: asking this loader again will not change that. */
    public record Absent() implements Lookup {
    }

    /** SLF4J is initialising on another thread (its substitute factory answered): ask again later. */
    public record NotYet() implements Lookup {
    }

    /**
     * Asks {@code loader} for its SLF4J. When a provider is visible this binds it (SLF4J binds on the
     * first {@code getILoggerFactory}), so call it only once the application is running, never from premain.
     */
    public static Lookup find(ClassLoader loader, String loggerName) {
        if (loader == null) {
            return new Absent();
        }
        try {
            if (!hasBinding(loader)) {
                // asking LoggerFactory would make SLF4J print its "no providers" warning on the
                // application's stderr; an application without a binding gets our stderr sink
                return new Absent();
            }
            Class<?> factory = Class.forName("org.slf4j.LoggerFactory", true, loader);
            Object iLoggerFactory = factory.getMethod("getILoggerFactory").invoke(null);
            if (iLoggerFactory == null) {
                return new Absent();
            }
            String type = iLoggerFactory.getClass().getName();
            if (type.contains("Substitute")) {
                return new NotYet();
            }
            if (type.contains("NOP")) {
                return new Absent();
            }
            Class<?> loggerType = Class.forName("org.slf4j.Logger", false, loader);
            Object logger = factory.getMethod("getLogger", String.class).invoke(null, loggerName);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodType withError = MethodType.methodType(void.class, String.class, Throwable.class);
            return new Bound(new Slf4jSink(logger,
                    lookup.findVirtual(loggerType, "error", withError),
                    lookup.findVirtual(loggerType, "warn", withError),
                    lookup.findVirtual(loggerType, "info", withError),
                    lookup.findVirtual(loggerType, "debug", withError),
                    lookup.findVirtual(loggerType, "isInfoEnabled", MethodType.methodType(boolean.class)),
                    lookup.findVirtual(loggerType, "isDebugEnabled", MethodType.methodType(boolean.class))));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return new Absent();
        }
    }

    /** An SLF4J 2 provider or an SLF4J 1.7 binding is visible to {@code loader}. */
    private static boolean hasBinding(ClassLoader loader) {
        try {
            Class<?> spi = Class.forName("org.slf4j.spi.SLF4JServiceProvider", false, loader);
            if (java.util.ServiceLoader.load(spi, loader).stream().findFirst().isPresent()) {
                return true;
            }
        } catch (ClassNotFoundException | LinkageError | java.util.ServiceConfigurationError slf4jOneOrNone) {
            // fall through to the 1.7 binding
        }
        try {
            Class.forName("org.slf4j.impl.StaticLoggerBinder", false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError none) {
            return false;
        }
    }

    @Override
    public boolean isEnabled(Level level) {
        try {
            return switch (level) {
                case ERROR, WARN -> true;
                case INFO -> (boolean) infoEnabled.invoke(logger);
                case DEBUG -> (boolean) debugEnabled.invoke(logger);
            };
        } catch (Throwable e) {
            return false;
        }
    }

    @Override
    public void log(Level level, String message, Throwable t) {
        MethodHandle h = switch (level) {
            case ERROR -> error;
            case WARN -> warn;
            case INFO -> info;
            case DEBUG -> debug;
        };
        try {
            h.invoke(logger, message, t);
        } catch (Throwable ignored) {
            // a broken logging setup in the application must not break its tool calls
        }
    }
}
