package dev.effectful.runtime.events;

import dev.effectful.core.log.AgentLog;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.LongSupplier;

/**
 * One {@link LibrarySinkProvider}'s sink, per application class loader: the tool's loader is asked
 * once (per tool class) whether it sees the library, and when it does, the sink class is defined
 * in a {@link SinkLoader} under it. One sink per loader, so meters are registered once; an
 * application without the library pays one failed class lookup per tool class, and loads nothing.
 */
public final class LibrarySinks implements EventSink {

    private static final EventSink ABSENT = new EventSink() {
        @Override
        public boolean interested(Class<?> toolClass) {
            return false;
        }

        @Override
        public void on(CallEvent event, int slot) {
        }
    };

    private final LibrarySinkProvider provider;
    private final LongSupplier unresolved;
    private final ClassLoader agentLoader;
    /** Per loader; weak both ways, so a redeployed application's loader is not kept by the agent. */
    private final Map<ClassLoader, WeakReference<EventSink>> byLoader = new WeakHashMap<>();
    private final ClassValue<EventSink> byTool = new ClassValue<>() {
        @Override
        protected EventSink computeValue(Class<?> type) {
            return sinkFor(type.getClassLoader());
        }
    };

    public LibrarySinks(LibrarySinkProvider provider, LongSupplier unresolved) {
        this.provider = provider;
        this.unresolved = unresolved;
        this.agentLoader = provider.getClass().getClassLoader();
    }

    @Override
    public boolean interested(Class<?> toolClass) {
        return toolClass != null && byTool.get(toolClass).interested(toolClass);
    }

    @Override
    public void begin(CallTrace trace, int slot) {
        byTool.get(trace.toolClass()).begin(trace, slot);
    }

    @Override
    public void on(CallEvent event, int slot) {
        if (event.trace() != null) {
            byTool.get(event.trace().toolClass()).on(event, slot);
        }
    }

    @Override
    public void abandon(CallTrace trace, int slot) {
        byTool.get(trace.toolClass()).abandon(trace, slot);
    }

    private synchronized EventSink sinkFor(ClassLoader loader) {
        if (loader == null) {
            return ABSENT; // a JDK class is no tool of an application's
        }
        WeakReference<EventSink> known = byLoader.get(loader);
        EventSink sink = known == null ? null : known.get();
        if (sink != null) {
            return sink;
        }
        sink = create(loader);
        byLoader.put(loader, new WeakReference<>(sink));
        return sink;
    }

    private EventSink create(ClassLoader loader) {
        try {
            Class.forName(provider.presenceClass(), false, loader);
        } catch (ClassNotFoundException | LinkageError absent) {
            return ABSENT;
        }
        String name = provider.sinkClass();
        try {
            SinkLoader home = new SinkLoader(provider.library(), loader, agentLoader,
                    name.substring(0, name.lastIndexOf('.') + 1));
            Class<?> type = Class.forName(name, true, home);
            EventSink sink = (EventSink) type.getConstructor(LongSupplier.class).newInstance(unresolved);
            AgentLog.debug("effectful shows its calls through the application's " + provider.library());
            return sink;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            AgentLog.errorOnce("library-sink:" + provider.library(), "effectful could not show its calls through the"
                    + " application's " + provider.library() + " (" + e + "); calls go on without it", e);
            return ABSENT;
        }
    }
}
