package dev.effectful.instrumentation.jdkhttp;

import dev.effectful.instrumentation.api.LibraryInstrumentation;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.List;
import java.util.Set;

import static net.bytebuddy.matcher.ElementMatchers.isPrivate;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * The intent key in the tool's key header ({@code @EffectfulTool(keyHeader = ...)}) on requests of the
 * JDK's two HTTP clients. {@code HttpClient}: every {@code send} and {@code sendAsync} of the JDK's one
 * implementation funnels into its private four-argument {@code sendAsync}, on the caller's thread.
 * {@code HttpURLConnection}: the JDK's implementation (also behind {@code https}, through its delegate),
 * at each public entry that may open the connection, while request properties can still be set.
 */
public final class JdkHttpInstrumentation implements LibraryInstrumentation {

    static final String HTTP_CLIENT = "jdk/internal/net/http/HttpClientImpl";
    static final String URL_CONNECTION = "sun/net/www/protocol/http/HttpURLConnection";
    static final String HTTPS_DELEGATE = "sun/net/www/protocol/https/AbstractDelegateHttpsURLConnection";

    @Override
    public String library() {
        return "jdk-http";
    }

    @Override
    public Set<String> classes() {
        return Set.of(HTTP_CLIENT, URL_CONNECTION, HTTPS_DELEGATE);
    }

    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return switch (internalName) {
            case HTTP_CLIENT -> List.of(Advice.to(HttpClientKeyHeader.class)
                    .on(named("sendAsync").and(isPrivate()).and(takesArguments(4))));
            case URL_CONNECTION -> List.of(Advice.to(UrlConnectionKeyHeader.class)
                    .on(namedOneOf("connect", "getOutputStream", "getInputStream").and(takesArguments(0))));
            case HTTPS_DELEGATE -> List.of(Advice.to(UrlConnectionKeyHeader.class)
                    .on(named("connect").and(takesArguments(0))));
            default -> List.of();
        };
    }
}
