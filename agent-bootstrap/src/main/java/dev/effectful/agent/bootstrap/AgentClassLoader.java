package dev.effectful.agent.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads the agent's own classes (runtime, Byte Buddy, Jackson, Chronicle, SLF4J) from the jar's
 * {@code inst/} folder, where they are stored as {@code .classdata} so that no other class loader
 * finds them. Its parent is the platform loader, so it sees the JDK and the bootstrap-appended
 * API and bridge, and nothing of the application, except the API package when the application
 * owns the one copy of it ({@link ApiHome}).
 */
final class AgentClassLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    private static final String PREFIX = "inst/";

    private final JarFile jar;
    private final String jarUrl;
    private final ProtectionDomain domain;
    /** Where the API package comes from when the application owns it (see ApiHome); null: parent. */
    private final ClassLoader apiHome;

    AgentClassLoader(JarFile jar, URL jarLocation, ClassLoader apiHome) {
        super("effectful-agent", ClassLoader.getPlatformClassLoader());
        this.apiHome = apiHome;
        this.jar = jar;
        this.jarUrl = "jar:" + jarLocation.toExternalForm() + "!/";
        this.domain = new ProtectionDomain(new CodeSource(jarLocation, (Certificate[]) null), null, this, null);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (apiHome != null && ApiHome.isApi(name)) {
            return apiHome.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        JarEntry entry = jar.getJarEntry(PREFIX + name.replace('.', '/') + ".classdata");
        if (entry == null) {
            throw new ClassNotFoundException(name);
        }
        byte[] bytes;
        try (InputStream in = jar.getInputStream(entry)) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            String pkg = name.substring(0, dot);
            if (getDefinedPackage(pkg) == null) {
                try {
                    definePackage(pkg, null, null, null, null, null, null, null);
                } catch (IllegalArgumentException alreadyDefinedConcurrently) {
                    // another thread won the race; the package exists either way
                }
            }
        }
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    @Override
    protected URL findResource(String name) {
        // Byte Buddy reads advice classes as resources: serve X.class from inst/X.classdata.
        String stored = name.endsWith(".class") ? name.substring(0, name.length() - 6) + ".classdata" : name;
        JarEntry entry = jar.getJarEntry(PREFIX + stored);
        if (entry == null) {
            return null;
        }
        try {
            return new URL(jarUrl + PREFIX + stored);
        } catch (MalformedURLException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.emptyEnumeration() : Collections.enumeration(java.util.List.of(url));
    }
}
