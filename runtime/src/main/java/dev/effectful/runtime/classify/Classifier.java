package dev.effectful.runtime.classify;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The one place where a failure becomes a closed outcome (docs/OUTCOMES.md, "Outcome classification").
 *
 * <p>For a thrown exception the cause chain is walked (bounded, cycle-safe) and the first link
 * that a rule names decides, with this precedence:
 * <ol>
 *   <li>a {@link ToolOutcomeException} anywhere in the chain: the tool stated its outcome;</li>
 *   <li>the tool's {@link ToolOverrides} ({@code permanentOn} before {@code retryableOn});</li>
 *   <li>the properties file (see below);</li>
 *   <li>the default table in {@code DefaultRules};</li>
 *   <li>otherwise unclassified: unknown/unknown, or retryable/no for a {@link EffectKind#READ}.</li>
 * </ol>
 * Each level looks at the whole chain before the next level is asked, so an override for an
 * inner cause beats a default for its wrapper.
 *
 * <h2>Properties file ({@value #FILE_KEY})</h2>
 * UTF-8, one rule a line; blank lines and everything after {@code #} are ignored:
 * <pre>
 * # &lt;fully.qualified.ExceptionClass&gt; = &lt;outcome&gt;[/&lt;effect&gt;]
 * com.acme.billing.CardDeclinedException = permanent
 * com.acme.billing.LedgerBusyException    = retryable/no
 * # http.&lt;status&gt; = &lt;outcome&gt;[/&lt;effect&gt;]
 * http.409 = permanent/no
 * http.500 = unknown/unknown
 * </pre>
 * <ul>
 *   <li>outcome: {@code retryable | permanent | unknown} ({@code ok} is not an outcome of a failure);</li>
 *   <li>effect: {@code yes | no | partial | unknown}; default {@code no} for retryable and permanent,
 *       {@code unknown} for unknown;</li>
 *   <li>a class rule matches the exception's class or any superclass by name, without loading
 *       the class, the nearest one winning; it is tried before an {@code http.} rule on the same
 *       link;</li>
 *   <li>an {@code http.<status>} rule (100-599) applies to a status read from a known carrier
 *       (Spring, Feign, JAX-RS) or a returned non-2xx JDK {@code HttpResponse};</li>
 *   <li>file rules apply to every tool kind as written;</li>
 *   <li>a malformed line or a key set twice fails with an {@link IllegalArgumentException} naming
 *       the file and the line.</li>
 * </ul>
 *
 * <p>Whenever the result is retryable and the deciding link carries a {@code Retry-After} header,
 * {@link Classification#retryAfterS()} holds it in seconds from now (an HTTP-date is converted,
 * never negative).
 */
public final class Classifier {

    /** The configuration key naming the properties file. */
    public static final String FILE_KEY = "effectful.classifier.file";

    private static final Classifier DEFAULTS = new Classifier(OverridesFile.EMPTY, Clock.systemUTC());

    private final OverridesFile file;
    private final Clock clock;
    /** Applied to every text taken from an exception or a body, before it is cut to one capped line. */
    private final UnaryOperator<String> redact;

    private Classifier(OverridesFile file, Clock clock) {
        this(file, clock, UnaryOperator.identity());
    }

    private Classifier(OverridesFile file, Clock clock, UnaryOperator<String> redact) {
        this.file = file;
        this.clock = clock;
        this.redact = redact;
    }

    /**
     * The same rules, with {@code redaction} applied to each exception message and body text
     * before it is collapsed and capped: a secret cut in half by the cap or split across
     * whitespace would no longer be found afterwards.
     */
    public Classifier redacting(UnaryOperator<String> redaction) {
        return new Classifier(file, clock, Objects.requireNonNull(redaction, "redaction"));
    }

    /** The contract's table and nothing else. */
    public static Classifier defaults() {
        return DEFAULTS;
    }

    /**
     * The defaults plus the rules of {@code propertiesFile}.
     *
     * @throws IOException              when the file cannot be read
     * @throws IllegalArgumentException naming the file and line of the first bad line
     */
    public static Classifier withOverridesFrom(Path propertiesFile) throws IOException {
        Objects.requireNonNull(propertiesFile, "propertiesFile");
        return new Classifier(OverridesFile.read(propertiesFile), Clock.systemUTC());
    }

    /** The same rules read against another clock, so HTTP-dates can be tested exactly. */
    Classifier withClock(Clock otherClock) {
        return new Classifier(file, otherClock, redact);
    }

    /**
     * The outcome of {@code thrown}, thrown by the body of a tool of {@code kind}.
     *
     * @param overrides the tool's own overrides; null means {@link ToolOverrides#NONE}
     */
    public Classification classify(Throwable thrown, EffectKind kind, ToolOverrides overrides) {
        Objects.requireNonNull(thrown, "thrown");
        Objects.requireNonNull(kind, "kind");
        ToolOverrides tool = overrides == null ? ToolOverrides.NONE : overrides;
        List<Link> chain = Link.chain(thrown);

        for (Link link : chain) {
            if (link.thrown() instanceof ToolOutcomeException stated && stated.outcome() != null) {
                return fromOutcome(stated);
            }
        }
        if (!tool.isEmpty()) {
            for (Link link : chain) {
                if (anyInstance(tool.permanentOn(), link.thrown())) {
                    return decided(link, Status.PERMANENT, EffectApplied.NO);
                }
                if (anyInstance(tool.retryableOn(), link.thrown())) {
                    return decided(link, Status.RETRYABLE, EffectApplied.NO);
                }
            }
        }
        for (Link link : chain) {
            Optional<OverridesFile.Verdict> v = file.match(link);
            if (v.isPresent()) {
                return decided(link, v.get().status(), v.get().effect());
            }
        }
        for (Link link : chain) {
            Optional<DefaultRules.Match> m = DefaultRules.match(link);
            if (m.isPresent()) {
                Meaning meaning = m.get().meaning();
                return build(link, meaning.status(kind), meaning.effect(kind), m.get().label());
            }
        }
        return unclassified(chain, kind);
    }

    /**
     * The outcome of a value a tool of {@code kind} returned: a JDK {@link HttpResponse} with a
     * non-2xx status is classified by the same table (and the file's {@code http.} rules);
     * a 2xx or any other value gives empty.
     */
    public Optional<Classification> classifyReturned(Object returned, EffectKind kind) {
        Objects.requireNonNull(kind, "kind");
        Optional<HttpStatusReader.Reading> reading = HttpStatusReader.readReturned(returned);
        if (reading.isEmpty() || reading.get().status() / 100 == 2) {
            return Optional.empty();
        }
        int code = reading.get().status();
        Status status;
        EffectApplied effect;
        Optional<OverridesFile.Verdict> v = file.forStatus(code);
        if (v.isPresent()) {
            status = v.get().status();
            effect = v.get().effect();
        } else {
            Meaning meaning = DefaultRules.forStatus(code);
            status = meaning.status(kind);
            effect = meaning.effect(kind);
        }
        String message = Messages.line(DefaultRules.httpLabel(code), redact.apply(bodySnippet((HttpResponse<?>) returned)));
        return Optional.of(new Classification(status, effect, retryAfter(status, reading.get()), message));
    }

    private static boolean anyInstance(List<Class<? extends Throwable>> types, Throwable t) {
        for (Class<? extends Throwable> type : types) {
            if (type != null && type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** An override or file rule decided; name the link the way the default table would. */
    private Classification decided(Link link, Status status, EffectApplied effect) {
        String label = DefaultRules.match(link).map(DefaultRules.Match::label).orElseGet(() -> Messages.nameOf(link.thrown()));
        return build(link, status, effect, label);
    }

    private Classification build(Link link, Status status, EffectApplied effect, String label) {
        Long retryAfterS = link.http().map(h -> retryAfter(status, h)).orElse(null);
        return new Classification(status, effect, retryAfterS, Messages.line(label, detailOf(link.thrown())));
    }

    private Long retryAfter(Status status, HttpStatusReader.Reading reading) {
        // a wait only means something to a caller that is told it may retry
        return status == Status.RETRYABLE ? RetryAfter.seconds(reading.retryAfter(), clock) : null;
    }

    private String detailOf(Throwable t) {
        return redact.apply(Messages.detailOf(t));
    }

    private Classification fromOutcome(ToolOutcomeException stated) {
        Outcome<?> o = stated.outcome();
        String message = o.message() != null ? redact.apply(o.message()) : "the tool reported " + o.status().word();
        return new Classification(o.status(), o.effectApplied(), o.retryAfterS(), Messages.line(message, null));
    }

    /** Names the outermost exception (what the tool threw) and, when it adds something, the root cause. */
    private Classification unclassified(List<Link> chain, EffectKind kind) {
        Throwable outer = chain.get(0).thrown();
        Throwable root = chain.get(chain.size() - 1).thrown();
        String detail = detailOf(outer);
        if (root != outer) {
            String rootDetail = detailOf(root);
            String rootText = rootDetail.isEmpty() ? Messages.nameOf(root) : Messages.nameOf(root) + ": " + rootDetail;
            if (!detail.contains(rootDetail.isEmpty() ? Messages.nameOf(root) : rootDetail)) {
                detail = detail.isEmpty() ? "caused by " + rootText : detail + " (caused by " + rootText + ")";
            }
        }
        Meaning meaning = Meaning.UNCLASSIFIED;
        return new Classification(meaning.status(kind), meaning.effect(kind), null,
                Messages.line("unexpected " + Messages.nameOf(outer), detail));
    }

    /** An error body is often the most useful thing the model can read; only text is taken. */
    private static String bodySnippet(HttpResponse<?> response) {
        try {
            return response.body() instanceof CharSequence text ? text.toString() : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
