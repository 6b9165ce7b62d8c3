package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Tools that quote their {@code @Redact} argument everywhere a careless application would. */
public class RedactionTools {

    /** How many times the body of {@link #issueSession} ran. */
    public static final AtomicInteger SESSION_BODIES = new AtomicInteger();

    /** Permanent path: the secret is in the message of an IllegalArgumentException. */
    @EffectfulTool(kind = EffectKind.SEND, name = "login")
    public String login(@IntentKey String user, @Redact String token) {
        throw new IllegalArgumentException("token " + token + " rejected");
    }

    /** Ok path: the secret is in the returned value. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "issue_session")
    public String issueSession(@IntentKey String user, @Redact String token) {
        SESSION_BODIES.incrementAndGet();
        return "session for " + token;
    }

    /** Retryable path: the secret is in a ConnectException's message, nested under a wrapper that quotes it too. */
    @EffectfulTool(kind = EffectKind.SEND, name = "push")
    public String push(@IntentKey String user, @Redact String token) {
        ConnectException refused = new ConnectException("connection refused for https://push.example/?token=" + token);
        throw new UncheckedIOException("push with " + token + " failed", refused);
    }

    /** Unclassified path with a collection of secrets: each element is looked for. */
    @EffectfulTool(kind = EffectKind.SEND, name = "rotate")
    public void rotate(@IntentKey String user, @Redact List<String> tokens) {
        throw new IllegalStateException("could not replace " + tokens.get(0) + " by " + tokens.get(1));
    }
}
