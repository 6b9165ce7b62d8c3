package dev.effectful.agent.e2e.apps.loading;

import java.lang.instrument.Instrumentation;

/**
 * The premain of another {@code -javaagent} given before Effectful's: it loads (and initialises) the
 * classes named in its argument, as monitoring agents do with the classes they watch.
 */
public final class EarlierAgent {

    /** Keeps the hidden class it defines alive, as a real agent keeps what it generates. */
    static volatile Object hidden;

    private EarlierAgent() {
    }

    public static void premain(String args, Instrumentation inst) throws Exception {
        for (String name : args.split(",")) {
            if (name.equals("hidden")) {
                // a class of its own, defined as a hidden class: no agent can rewrite it afterwards
                byte[] bytes;
                try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream(
                        EarlierAgent.class.getPackageName().replace('.', '/') + "/HiddenMailer.class")) {
                    bytes = in.readAllBytes();
                }
                hidden = java.lang.invoke.MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
                continue;
            }
            Class.forName(name, true, ClassLoader.getSystemClassLoader());
        }
        System.out.println("EARLIER-AGENT loaded " + args);
    }
}
