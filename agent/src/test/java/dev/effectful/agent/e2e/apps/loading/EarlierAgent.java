package dev.effectful.agent.e2e.apps.loading;

import java.lang.instrument.Instrumentation;

/**
 * The premain of another {@code -javaagent} given before Effectful's: it loads (and initialises) the
 * classes named in its argument, as monitoring agents do with the classes they watch.
 */
public final class EarlierAgent {

    private EarlierAgent() {
    }

    public static void premain(String args, Instrumentation inst) throws ClassNotFoundException {
        for (String name : args.split(",")) {
            Class.forName(name, true, ClassLoader.getSystemClassLoader());
        }
        System.out.println("EARLIER-AGENT loaded " + args);
    }
}
