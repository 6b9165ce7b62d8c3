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
