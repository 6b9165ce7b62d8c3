package dev.effectful.cli.console;

import dev.effectful.core.journal.Verdict;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.effectful.cli.console.Exchanges.decode;
import static dev.effectful.cli.console.Exchanges.form;
import static dev.effectful.cli.console.Exchanges.readBody;
import static dev.effectful.cli.console.Exchanges.send;
import static dev.effectful.cli.console.Exchanges.text;

/**
 * The console's web server: the JDK's own HTTP server on one address (loopback unless told otherwise),
 * pages rendered by precompiled JTE templates (which escape everything they print), a token printed at
 * start traded for a session cookie, a CSRF token in every form, a strict Content-Security-Policy, and
 * live updates over Server-Sent Events. It reads through {@link ConsoleData} and acts only through it.
 *
 * <p>This class routes requests and renders pages; the headers and Host check are {@link SecurityHeaders}', the
 * sign-in and sessions {@link Sessions}', the live stream {@link LiveEvents}' and the HTTP plumbing
 * {@link Exchanges}'.
 */
public final class ConsoleServer implements AutoCloseable {

    /**
     * The console's action, which is also the CLI's command ({@code journal approve|deny}), that gives
     * {@code verdict}; null for a verdict no person gives. Exhaustive on purpose: a verdict added to the
     * journal does not compile here until the console and the CLI are given its word.
     */
    public static String action(Verdict verdict) {
        return switch (verdict) {
            case APPROVED -> "approve";
            case DENIED -> "deny";
            case EXPIRED -> null;
        };
    }

    /** The verdict a console action gives ({@link #action}); null for an action that gives none. */
    public static Verdict verdictOf(String action) {
        for (Verdict v : Verdict.values()) {
            if (action.equals(action(v))) {
                return v;
            }
        }
        return null;
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private final ConsoleData data;
    private final boolean readOnly;
    private final String osUser;
    private final Clock clock;
    private final Sessions sessions = new Sessions();
    private final TemplateEngine templates;
    private final HttpServer server;
    private final ExecutorService pages;
    private final ExecutorService live;
    private final LiveEvents events;
    private final boolean loopbackOnly;
    private volatile boolean closed;

    private ConsoleServer(ConsoleData data, InetSocketAddress address, boolean readOnly, String osUser, Clock clock)
            throws IOException {
        this.data = data;
        this.readOnly = readOnly;
        this.osUser = osUser;
        this.clock = clock;
        this.loopbackOnly = address.getAddress().isLoopbackAddress();
        this.events = new LiveEvents(data, () -> closed);
        this.templates = precompiledTemplates();
        this.server = HttpServer.create(address, 32);
        this.pages = Executors.newFixedThreadPool(4, daemon("effectful-console"));
        this.live = Executors.newCachedThreadPool(daemon("effectful-console-live"));
        server.setExecutor(pages);
        server.createContext("/", this::handle);
    }

    /**
     * The generated template classes sit beside this one, in whatever loader holds the CLI (the agent's
     * isolated one in the jar). JTE looks them up through the context loader when given no class
     * directory, so that is pointed here for the moment the engine is made.
     */
    private static TemplateEngine precompiledTemplates() {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(ConsoleServer.class.getClassLoader());
        try {
            return TemplateEngine.createPrecompiled(null, ContentType.Html, ConsoleServer.class.getClassLoader());
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /** Starts a console on {@code address}; {@link #url()} is what the person opens. */
    public static ConsoleServer start(ConsoleData data, InetSocketAddress address, boolean readOnly, String osUser,
                                      Clock clock) throws IOException {
        ConsoleServer s = new ConsoleServer(data, address, readOnly, osUser, clock);
        s.server.start();
        return s;
    }

    /** The one URL that signs a browser in; it works once. */
    public String url() {
        InetSocketAddress a = server.getAddress();
        InetAddress ip = a.getAddress();
        String host = ip.isAnyLocalAddress() ? "127.0.0.1" : ip.getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + a.getPort() + "/login?token=" + sessions.token();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        closed = true;
        server.stop(0);
        pages.shutdownNow();
        live.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        boolean handedOff = false;
        try {
            SecurityHeaders.secureHeaders(ex);
            if (!SecurityHeaders.hostAllowed(ex, loopbackOnly)) {
                text(ex, 421, "this console answers only to the address it was started on");
                return;
            }
            String path = ex.getRequestURI().getRawPath();
            String method = ex.getRequestMethod();
            if (path.equals("/login") && method.equals("GET")) {
                login(ex);
                return;
            }
            Optional<Sessions.Session> session = sessions.of(ex.getRequestHeaders().getFirst("Cookie"));
            if (session.isEmpty()) {
                text(ex, 401, "not signed in: open the URL the console printed when it started"
                        + " (it works once; restart the console for a new one)");
                return;
            }
            if (path.equals("/events") && method.equals("GET")) {
                // a live stream lasts as long as its page: on threads of its own, never the pages' few
                live.execute(() -> {
                    try (ex) {
                        events.stream(ex);
                    } catch (IOException | RuntimeException gone) {
                        // the page went away
                    }
                });
                handedOff = true;
                return;
            }
            route(ex, session.get(), method, path);
        } catch (RuntimeException | LinkageError e) {
            // one broken page must not stop the console; the person sees why, and so does its log
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            System.err.println("effectful console: " + ex.getRequestURI().getRawPath() + " failed: " + e
                    + (root == e ? "" : " (" + root + ")"));
            try {
                text(ex, 500, "the console failed on this page: " + e);
            } catch (IOException | RuntimeException ignored) {
                // the response was already under way
            }
        } finally {
            if (!handedOff) {
                ex.close();
            }
        }
    }

    private void route(HttpExchange ex, Sessions.Session s, String method, String path) throws IOException {
        if (method.equals("POST")) {
            post(ex, s, path);
            return;
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            text(ex, 405, "only GET and POST");
            return;
        }
        Map<String, String> query = form(ex.getRequestURI().getRawQuery());
        if (path.equals("/")) {
            page(ex, 200, "desk", frame("Needs a person", s), "desk", data.desk());
        } else if (path.equals("/overview")) {
            page(ex, 200, "overview", frame("Overview", s), "overview", data.overview(query.getOrDefault("q", "").strip()));
        } else if (path.equals("/task")) {
            String id = query.getOrDefault("id", "");
            page(ex, 200, "task", frame("Task " + id, s), "task", data.task(id));
        } else if (path.startsWith("/intent/")) {
            String key = decode(path.substring("/intent/".length()));
            Optional<Views.IntentPage> p = data.intent(key);
            if (p.isEmpty()) {
                text(ex, 404, "no intent with key " + key + " here");
                return;
            }
            page(ex, 200, "intent", frame("Intent " + p.get().intent().shortKey(), s), "page", p.get());
        } else if (path.equals("/static/console.css")) {
            resource(ex, "console.css", "text/css; charset=utf-8");
        } else if (path.equals("/static/console.js")) {
            resource(ex, "console.js", "text/javascript; charset=utf-8");
        } else {
            text(ex, 404, "no such page");
        }
    }

    private void post(HttpExchange ex, Sessions.Session s, String path) throws IOException {
        if (readOnly) {
            text(ex, 403, "this console is read-only (started with --read-only)");
            return;
        }
        String body = readBody(ex);
        if (body == null) {
            text(ex, 413, "form too large");
            return;
        }
        Map<String, String> form = form(body);
        if (!Sessions.same(form.get("csrf"), s.csrf)) {
            text(ex, 403, "the form's CSRF token is missing or wrong: reload the page and try again");
            return;
        }
        String action = path.startsWith("/intent/") ? path.substring(path.lastIndexOf('/') + 1) : "";
        if (!action.equals("resolve") && verdictOf(action) == null) {
            text(ex, 404, "no such action");
            return;
        }
        String key = decode(path.substring("/intent/".length(), path.length() - action.length() - 1));
        String person = s.person();
        String typed = form.getOrDefault("person", "").strip();
        if (!typed.isEmpty()) {
            s.named(typed);
            person = typed;
        }
        String note = form.getOrDefault("note", "").strip();
        String applied = form.getOrDefault("applied", "");
        boolean resolve = action.equals("resolve");
        if (person == null || person.isEmpty() || note.isEmpty()
                || resolve && !(applied.equals("yes") || applied.equals("no"))) {
            Views.Done d = new Views.Done(false, "Not recorded", List.of("A verdict needs your name and a note"
                    + (resolve ? ", and whether it applied." : ".")), Links.intent(key));
            page(ex, 400, "done", answerFrame("Not recorded", s), "done", d);
            return;
        }
        Views.Done d;
        if (resolve) {
            String result = form.getOrDefault("result", "").strip();
            d = data.resolve(key, applied.equals("yes"), note, result.isEmpty() ? null : result,
                    person + " (OS user " + osUser + ", console)");
        } else {
            d = data.approve(key, verdictOf(action), note, person + " (console)");
        }
        page(ex, d.ok() ? 200 : 409, "done", answerFrame(d.heading(), s), "done", d);
    }

    private void login(HttpExchange ex) throws IOException {
        String token = form(ex.getRequestURI().getRawQuery()).get("token");
        Optional<String> id = sessions.signIn(token);
        if (id.isEmpty()) {
            text(ex, 401, "this sign-in link is wrong or was used already: restart the console for a new one");
            return;
        }
        ex.getResponseHeaders().add("Set-Cookie", Sessions.COOKIE + "=" + id.get()
                + "; Path=/; HttpOnly; SameSite=Strict");
        ex.getResponseHeaders().set("Location", "/");
        ex.sendResponseHeaders(303, -1);
    }

    /**
     * The answer to a POST never reloads itself: a browser reloads a POST's page by sending the form again,
     * which would submit the verdict a second time. It carries no version, so its script opens no stream.
     */
    private Views.Frame answerFrame(String title, Sessions.Session s) {
        return new Views.Frame(title, data.source(), s.csrf, readOnly, s.person(), -1,
                TIME.format(clock.instant().atZone(ZoneId.systemDefault())));
    }

    /** Taken before the page's data is read, so any change after that read is a newer version. */
    private Views.Frame frame(String title, Sessions.Session s) {
        return new Views.Frame(title, data.source(), s.csrf, readOnly, s.person(), data.version(),
                TIME.format(clock.instant().atZone(ZoneId.systemDefault())));
    }

    private void page(HttpExchange ex, int status, String template, Views.Frame frame, String name, Object value)
            throws IOException {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("frame", frame);
        params.put(name, value);
        StringOutput out = new StringOutput();
        templates.render(template + ".jte", params, out);
        send(ex, status, "text/html; charset=utf-8", out.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void resource(HttpExchange ex, String name, String type) throws IOException {
        try (InputStream in = ConsoleServer.class.getResourceAsStream("/dev/effectful/console/" + name)) {
            if (in == null) {
                text(ex, 404, "missing " + name);
                return;
            }
            send(ex, 200, type, in.readAllBytes());
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Links the templates print; every part a person typed or a journal holds is encoded. */
    public static final class Links {
        private Links() {
        }

        public static String task(String task) {
            return "/task?id=" + java.net.URLEncoder.encode(task == null ? "" : task, StandardCharsets.UTF_8);
        }

        public static String intent(String key) {
            return "/intent/" + java.net.URLEncoder.encode(key == null ? "" : key, StandardCharsets.UTF_8);
        }

        public static String resolve(String key) {
            return intent(key) + "/resolve";
        }

        public static String approve(String key) {
            return intent(key) + "/approve";
        }

        public static String deny(String key) {
            return intent(key) + "/deny";
        }
    }
}
