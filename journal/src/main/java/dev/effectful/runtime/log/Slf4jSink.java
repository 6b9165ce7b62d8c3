package dev.effectful.runtime.log;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;

/**
 * Logs through the application's own SLF4J binding, reached reflectively through the application
 * class loader: the agent's isolated copy of SLF4J has no binding, and the application's logback
 * configuration (levels, appenders) must apply to our lines as to its own.
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

    /** Empty when the application has no SLF4J, or SLF4J without a binding (a NOP factory). */
    public static Optional<LogSink> of(ClassLoader applicationLoader, String loggerName) {
        try {
            if (!hasBinding(applicationLoader)) {
                // asking LoggerFactory would make SLF4J print its "no providers" warning on the
                // application's stderr; an application without a binding gets our stderr sink
                return Optional.empty();
            }
            Class<?> factory = Class.forName("org.slf4j.LoggerFactory", true, applicationLoader);
            Object iLoggerFactory = factory.getMethod("getILoggerFactory").invoke(null);
            if (iLoggerFactory == null || iLoggerFactory.getClass().getName().contains("NOP")
                    || iLoggerFactory.getClass().getName().contains("Substitute")) {
                return Optional.empty();
            }
            Class<?> loggerType = Class.forName("org.slf4j.Logger", false, applicationLoader);
            Object logger = factory.getMethod("getLogger", String.class).invoke(null, loggerName);
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodType withError = MethodType.methodType(void.class, String.class, Throwable.class);
            return Optional.of(new Slf4jSink(logger,
                    lookup.findVirtual(loggerType, "error", withError),
                    lookup.findVirtual(loggerType, "warn", withError),
                    lookup.findVirtual(loggerType, "info", withError),
                    lookup.findVirtual(loggerType, "debug", withError),
                    lookup.findVirtual(loggerType, "isInfoEnabled", MethodType.methodType(boolean.class)),
                    lookup.findVirtual(loggerType, "isDebugEnabled", MethodType.methodType(boolean.class))));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** An SLF4J 2 provider or an SLF4J 1.7 binding is visible to the application loader. */
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
