package dev.effectful.agent.e2e.apps.loading;

import dev.effectful.Task;

import java.io.File;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * A test application: each scenario calls its tools twice with the same intent inside one task and
 * prints each answer as {@code RESULT name value} (a thrown exception as {@code THROWN message}).
 */
public final class LoadingApp {

    private LoadingApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("hidden-first")) {
            // the first thing main does, while the agent may still be hooking the JDK's hidden-class factory
            Function<String, String> hidden = hidden();
            try (Task t = Task.open("t-hidden-first", Duration.ofSeconds(30))) {
                print("hidden_1", () -> hidden.apply("h-2"));
                print("hidden_2", () -> hidden.apply("h-2"));
            }
            System.out.println("DONE " + args[0]);
            return;
        }
        System.out.println("RESULT task_loader " + Task.class.getClassLoader());
        switch (args[0]) {
            case "send" -> {
                LoadingTools.Sender sender = new LoadingTools.Sender();
                try (Task t = Task.open("t-send", Duration.ofSeconds(30))) {
                    print("send_1", () -> sender.send("bob"));
                    print("send_2", () -> sender.send("bob"));
                    print("look", () -> sender.look("stock"));
                }
            }
            case "lambdas" -> {
                LoadingTools.Payments lambda = order -> LoadingTools.effect("pay_lambda", order);
                LoadingTools.Payments reference = LoadingTools::chargeByReference;
                Function<String, String> hidden = hidden();
                try (Task t = Task.open("t-lambdas", Duration.ofSeconds(30))) {
                    for (int i = 1; i <= 2; i++) {
                        print("lambda_" + i, () -> lambda.pay("o-1"));
                        print("reference_" + i, () -> reference.pay("o-2"));
                        print("hidden_" + i, () -> hidden.apply("h-1"));
                    }
                }
                System.out.println("RESULT lambda_equals_itself " + lambda.equals(lambda));
            }
            case "child-first" -> {
                // a plug-in loader that looks in its own jars first, the API jar among them
                URL[] jars = {new File(args[1]).toURI().toURL(), new File(args[2]).toURI().toURL()};
                try (URLClassLoader plugin = new ChildFirst(jars, LoadingApp.class.getClassLoader())) {
                    Class.forName(LoadingApp.class.getName(), true, plugin).getMethod("main", String[].class)
                            .invoke(null, (Object) new String[] {"send"});
                }
            }
            default -> throw new IllegalArgumentException("no scenario " + args[0]);
        }
        System.out.println("DONE " + args[0]);
    }

    @SuppressWarnings("unchecked")
    private static Function<String, String> hidden() throws Exception {
        byte[] bytes;
        try (InputStream in = LoadingApp.class.getResourceAsStream("HiddenMailer.class")) {
            bytes = in.readAllBytes();
        }
        Class<?> c = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
        return (Function<String, String>) c.getDeclaredConstructor().newInstance();
    }

    static void print(String name, Callable<?> call) {
        String value;
        try {
            value = String.valueOf(call.call());
        } catch (Exception e) {
            // by message: a loader with its own API copy cannot catch the agent's ToolOutcomeException by type
            value = "THROWN " + e.getMessage();
        }
        System.out.println("RESULT " + name + " " + value.replace('\n', ' '));
    }

    /** Child-first, except for the JDK and the test harness's HTTP helper's package. */
    static final class ChildFirst extends URLClassLoader {
        ChildFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null && !name.startsWith("java.")) {
                    try {
                        c = findClass(name);
                    } catch (ClassNotFoundException notMine) {
                        // the parent's, then
                    }
                }
                return c != null ? c : super.loadClass(name, resolve);
            }
        }
    }
}
