package dev.effectful.instrumentation.jdkhttp;

import dev.effectful.instrumentation.api.EntryCall;
import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.List;

/**
 * The intent key in the tool's key header ({@code @EffectfulTool(keyHeader = ...)}) on requests of the
 * JDK's two HTTP clients. {@code HttpClient}: every {@code send} and {@code sendAsync} of the JDK's one
 * implementation funnels into its private four-argument {@code sendAsync}, on the caller's thread.
 * {@code HttpURLConnection}: the JDK's implementation (also behind {@code https}, through its delegate),
 * at each public entry that may open the connection, while request properties can still be set.
 */
public final class JdkHttpInstrumentation extends NamedInstrumentation {

    static final String HTTP_CLIENT = "jdk/internal/net/http/HttpClientImpl";
    static final String URL_CONNECTION = "sun/net/www/protocol/http/HttpURLConnection";
    static final String HTTPS_DELEGATE = "sun/net/www/protocol/https/AbstractDelegateHttpsURLConnection";
    /** The private four-argument {@code sendAsync} (JDK 11 to at least 25). */
    static final String SEND_ASYNC = "(Ljava/net/http/HttpRequest;Ljava/net/http/HttpResponse$BodyHandler;"
            + "Ljava/net/http/HttpResponse$PushPromiseHandler;Ljava/util/concurrent/Executor;)"
            + "Ljava/util/concurrent/CompletableFuture;";

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public JdkHttpInstrumentation() {
        super("jdk-http", HTTP_CLIENT, URL_CONNECTION, HTTPS_DELEGATE);
    }

    @Override
    public List<EntryCall> entryCalls(String internalName) {
        return switch (internalName) {
            // every send and sendAsync funnels into this one, on the caller's thread
            case HTTP_CLIENT -> List.of(new EntryCall("sendAsync", SEND_ASYNC, 0, true, KeyHeaderHooks::httpRequest));
            case URL_CONNECTION -> List.of(
                    new EntryCall("connect", "()V", EntryCall.THIS, false, KeyHeaderHooks::urlConnection),
                    new EntryCall("getOutputStream", "()Ljava/io/OutputStream;", EntryCall.THIS, false,
                            KeyHeaderHooks::urlConnection),
                    new EntryCall("getInputStream", "()Ljava/io/InputStream;", EntryCall.THIS, false,
                            KeyHeaderHooks::urlConnection));
            case HTTPS_DELEGATE -> List.of(new EntryCall("connect", "()V", EntryCall.THIS, false, KeyHeaderHooks::urlConnection));
            default -> List.of();
        };
    }

    /** Everything is an entry call: no Byte Buddy advice. */
    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return List.of();
    }
}
