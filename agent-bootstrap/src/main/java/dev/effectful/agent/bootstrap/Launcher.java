package dev.effectful.agent.bootstrap;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * {@code java -jar effectful-agent.jar journal ...} and {@code ... attach PID}. The CLI runs in the
 * same isolated class loader as the agent, so it reads the journal with the same code that wrote it.
 */
public final class Launcher {

    private Launcher() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || "--help".equals(args[0]) || "-h".equals(args[0])) {
            System.out.println("usage: java -jar effectful-agent.jar journal [--dir DIR] [--json] COMMAND ...");
            System.out.println("       java -jar effectful-agent.jar attach PID [AGENT_ARGS]");
            System.out.println("       java -jar effectful-agent.jar journal --help   for the journal commands");
            System.out.println("       java -jar effectful-agent.jar --version");
            return args.length == 0 ? 2 : 0;
        }
        if ("--version".equals(args[0]) || "-V".equals(args[0])) {
            String version = Launcher.class.getPackage() == null ? null : Launcher.class.getPackage().getImplementationVersion();
            System.out.println("effectful " + (version == null ? "(not run from the agent jar)" : version));
            return 0;
        }
        try {
            switch (args[0]) {
                case "journal": {
                    IsolatedRuntime.quietChronicle();
                    UnsafeWarning.markGiven();
                    // the jar's manifest is read by this (system) loader; the CLI's isolated loader defines
                    // its packages without one, so it learns the version from here
                    String version = Launcher.class.getPackage() == null ? null : Launcher.class.getPackage().getImplementationVersion();
                    if (version != null && System.getProperty("effectful.version") == null) {
                        System.setProperty("effectful.version", version);
                    }
                    ClassLoader loader = IsolatedRuntime.loader();
                    Class<?> cli = Class.forName("dev.effectful.cli.JournalCli", true, loader);
                    Method run = cli.getMethod("run", String[].class);
                    String[] rest = new String[args.length - 1];
                    System.arraycopy(args, 1, rest, 0, rest.length);
                    return (Integer) run.invoke(null, (Object) rest);
                }
                case "attach":
                    return attach(args);
                default:
                    System.err.println("effectful: unknown command '" + args[0] + "' (journal, attach, --version)");
                    return 2;
            }
        } catch (InvocationTargetException e) {
            System.err.println("effectful: " + e.getCause());
            return 1;
        } catch (Exception | LinkageError e) {
            System.err.println("effectful: " + e);
            return 1;
        }
    }

    private static int attach(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: java -jar effectful-agent.jar attach PID [AGENT_ARGS]");
            return 2;
        }
        File jar = IsolatedRuntime.agentJar();
        // jdk.attach is loaded reflectively so the bootstrap classes need nothing beyond java.base
        Class<?> vmClass = Class.forName("com.sun.tools.attach.VirtualMachine");
        Object vm = vmClass.getMethod("attach", String.class).invoke(null, args[1]);
        try {
            vmClass.getMethod("loadAgent", String.class, String.class)
                    .invoke(vm, jar.getAbsolutePath(), args.length > 2 ? args[2] : "");
        } finally {
            vmClass.getMethod("detach").invoke(vm);
        }
        System.out.println("effectful: agent loaded into pid " + args[1]);
        return 0;
    }
}
