package dev.effectful.agent.e2e.apps.iso;

import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * Which copies of Jackson, Byte Buddy and SLF4J the application sees, and that they work. Kept out
 * of IsoApp so the attach scenario runs without these libraries on its class path.
 */
final class IsoLibraries {

    private IsoLibraries() {
    }

    static void report() {
        IsoApp.print("jackson_version", () -> com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString());
        IsoApp.print("jackson_jar", () -> IsoApp.jarOf(com.fasterxml.jackson.databind.ObjectMapper.class));
        IsoApp.print("jackson_works", () -> new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of("a", 1)));
        IsoApp.print("bytebuddy_jar", () -> IsoApp.jarOf(net.bytebuddy.ByteBuddy.class));
        IsoApp.print("bytebuddy_works", () -> new net.bytebuddy.ByteBuddy(net.bytebuddy.ClassFileVersion.JAVA_V8)
                .subclass(Object.class)
                .method(net.bytebuddy.matcher.ElementMatchers.named("toString"))
                .intercept(net.bytebuddy.implementation.FixedValue.value("made by the app's byte buddy"))
                .make()
                .load(IsoLibraries.class.getClassLoader())
                .getLoaded().getDeclaredConstructor().newInstance().toString());
        IsoApp.print("slf4j_jar", () -> IsoApp.jarOf(LoggerFactory.class));
        IsoApp.print("slf4j_binding", () -> LoggerFactory.getILoggerFactory().getClass().getName());
        for (String hidden : new String[] {"dev.effectful.runtime.engine.CallEngine", "dev.effectful.agent.installer.AgentInstaller",
                "net.openhft.chronicle.queue.ChronicleQueue", "org.slf4j.nop.NOPServiceProvider", "picocli.CommandLine"}) {
            IsoApp.print("visible:" + hidden, () -> {
                try {
                    return "yes " + Class.forName(hidden, false, IsoLibraries.class.getClassLoader()).getClassLoader();
                } catch (ClassNotFoundException e) {
                    return "no";
                }
            });
        }
    }

}
