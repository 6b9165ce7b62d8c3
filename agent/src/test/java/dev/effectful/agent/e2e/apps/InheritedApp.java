package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.agent.e2e.ControlFiles;
import dev.effectful.agent.e2e.apps.InheritedTools.CardPayments;
import dev.effectful.agent.e2e.apps.InheritedTools.Payments;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import net.bytebuddy.implementation.SuperMethodCall;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;

import static dev.effectful.agent.e2e.apps.CoreApp.print;
import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * Calls each inherited tool twice for the same intent inside one task, printing both answers:
 * directly, through JDK dynamic proxies, and through a subclass generated at run time.
 */
public final class InheritedApp {

    private InheritedApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("attach")) {
            attach(java.nio.file.Path.of(args[1]));
            return;
        }
        try (Task t = Task.open(System.getProperty("task", "t-inherit"), Duration.ofSeconds(20))) {
            Payments card = new CardPayments();
            twice("interface", () -> card.charge("ord-1", 500, "tok-secret-4242"));

            InheritedTools.Shipper shipper = new InheritedTools.PostShipper();
            twice("abstract", () -> shipper.ship("parcel-1"));

            InheritedTools.Mailer mailer = new InheritedTools.LoudMailer();
            twice("overridden", () -> mailer.mail("bob"));

            InheritedTools.Notifier pager = new InheritedTools.Pager();
            twice("default", () -> pager.ping("ann"));
            twice("default_overridden", () -> pager.page("ann"));

            InheritedTools.Port<String> rooms = new InheritedTools.RoomPort();
            twice("generic", () -> rooms.book("room-7"));

            InheritedTools.Labels labels = new InheritedTools.OwnLabels();
            twice("own_wins", () -> labels.label("l-1"));

            // a proxy in front of the guarded adapter: the proxy and the adapter guard the same call
            Payments proxied = (Payments) Proxy.newProxyInstance(InheritedApp.class.getClassLoader(),
                    new Class<?>[] {Payments.class}, (proxy, method, a) -> {
                        try {
                            return method.invoke(card, a);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            twice("proxy_delegating", () -> proxied.charge("ord-2", 700, "tok-secret-4242"));

            // a proxy that is the implementation, as a generated HTTP client
            InheritedTools.Remote remote = (InheritedTools.Remote) Proxy.newProxyInstance(
                    InheritedApp.class.getClassLoader(), new Class<?>[] {InheritedTools.Remote.class},
                    (proxy, method, a) -> method.getName().equals("create") ? InheritedTools.effect("remote_create")
                            : method.invoke(new Object(), a));
            twice("proxy_handler", () -> remote.create("r-1"));

            // a subclass generated at run time that overrides and calls super, defined without a class file
            Class<? extends CardPayments> generated = new ByteBuddy().subclass(CardPayments.class)
                    .method(named("charge")).intercept(SuperMethodCall.INSTANCE)
                    .make().load(InheritedApp.class.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER)
                    .getLoaded();
            Payments sub = generated.getDeclaredConstructor().newInstance();
            twice("generated_subclass", () -> sub.charge("ord-3", 900, "tok-secret-4242"));

            // Spring's CGLIB, as for a @Configuration or @Transactional bean: the interceptor calls super
            org.springframework.cglib.proxy.Enhancer enhancer = new org.springframework.cglib.proxy.Enhancer();
            enhancer.setSuperclass(CardPayments.class);
            enhancer.setCallback((org.springframework.cglib.proxy.MethodInterceptor)
                    (obj, method, a, proxy) -> proxy.invokeSuper(obj, a));
            Payments bean = (Payments) enhancer.create();
            twice("cglib_subclass", () -> bean.charge("ord-4", 1100, "tok-secret-4242"));
        }
        System.out.println("DONE");
    }

    /** Loads the adapter and a proxy before the agent is attached, then calls them after. */
    private static void attach(java.nio.file.Path go) throws Exception {
        Payments card = new CardPayments();
        Payments proxied = (Payments) Proxy.newProxyInstance(InheritedApp.class.getClassLoader(),
                new Class<?>[] {Payments.class}, (proxy, method, a) -> method.invoke(card, a));
        try (Task t = Task.open("t-inherit-attach", Duration.ofSeconds(60))) {
            print("before", () -> card.charge("ord-a1", 100, "tok-secret-4242"));
            System.out.println("READY");
            ControlFiles.awaitGo(go);
            twice("attached", () -> card.charge("ord-a2", 100, "tok-secret-4242"));
            twice("attached_proxy", () -> proxied.charge("ord-a3", 100, "tok-secret-4242"));
        }
        System.out.println("DONE");
    }

    private static void twice(String name, java.util.concurrent.Callable<?> call) {
        print(name + "_1", call);
        print(name + "_2", call);
    }
}
