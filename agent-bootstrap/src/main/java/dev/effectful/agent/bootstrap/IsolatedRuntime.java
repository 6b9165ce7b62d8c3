package dev.effectful.agent.bootstrap;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.util.jar.JarFile;

/** Finds the agent jar and builds the one isolated class loader over its {@code inst/} folder. */
final class IsolatedRuntime {

    private static volatile ClassLoader loader;

    private IsolatedRuntime() {
    }

    static File agentJar() throws URISyntaxException {
        URL location = IsolatedRuntime.class.getProtectionDomain().getCodeSource().getLocation();
        return new File(location.toURI());
    }

    static ClassLoader loader() throws IOException, URISyntaxException {
        return loader(null);
    }

    /** @param apiHome the application loader that owns the API package, or null (see ApiHome) */
    static synchronized ClassLoader loader(ClassLoader apiHome) throws IOException, URISyntaxException {
        if (loader == null) {
            File jar = agentJar();
            loader = new AgentClassLoader(new JarFile(jar, false), jar.toURI().toURL(), apiHome);
        }
        return loader;
    }

    /**
     * Chronicle reads these before it loads: no analytics (it would open a socket), no banner.
     * Set only when the user has not chosen otherwise.
     */
    static void quietChronicle() {
        setIfAbsent("chronicle.analytics.disable", "true");
        setIfAbsent("chronicle.announcer.disable", "true");
        setIfAbsent("chronicle.disk.monitor.disable", "true");
        setIfAbsent("disable.resource.warning", "true");
        setIfAbsent("jvmWarningExceptionTracing", "false");
        setIfAbsent("net.bytebuddy.nexus.disabled", "true");
    }

    private static void setIfAbsent(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
