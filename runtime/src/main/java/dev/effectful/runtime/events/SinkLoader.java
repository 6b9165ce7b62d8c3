package dev.effectful.runtime.events;

import java.io.IOException;
import java.io.InputStream;

/**
 * Where a library sink runs: a child of the application's loader (so the sink links against the
 * application's own copy of the library), which takes the sink's package from the agent's jar and
 * the event types ({@code dev.effectful.runtime.*}) from the agent's loader, so both sides share them.
 */
final class SinkLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader agent;
    private final String ownPackage;

    SinkLoader(String library, ClassLoader application, ClassLoader agent, String ownPackage) {
        super("effectful-" + library, application);
        this.agent = agent;
        this.ownPackage = ownPackage;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(ownPackage)) {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : define(name);
            }
        }
        if (name.startsWith("dev.effectful.runtime.") || name.startsWith("dev.effectful.core.")) {
            return agent.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    private Class<?> define(String name) throws ClassNotFoundException {
        try (InputStream in = agent.getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }
}
