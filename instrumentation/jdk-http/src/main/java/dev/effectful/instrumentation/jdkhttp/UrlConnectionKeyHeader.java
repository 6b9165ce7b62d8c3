package dev.effectful.instrumentation.jdkhttp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

import java.net.URLConnection;

/**
 * Inlined into the JDK's {@code HttpURLConnection} at {@code connect}, {@code getOutputStream} and
 * {@code getInputStream} (whichever the application calls first opens the connection): sets the key
 * header as a request property unless the application set it. Once the connection is open the JDK
 * refuses new properties; that refusal is swallowed and the request goes out as the application made it.
 * Once the property is set the journal records that the key goes out ({@code key_sent}), before the
 * connection is opened.
 */
public final class UrlConnectionKeyHeader {

    private UrlConnectionKeyHeader() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.This URLConnection connection) {
        String[] header = Frameworks.keyHeader();
        if (header != null) {
            String own = connection.getRequestProperty(header[0]);
            if (own != null) {
                Frameworks.keyHeaderKept(own);
            } else {
                connection.setRequestProperty(header[0], header[1]);
                // reached only when the property was taken: the request that leaves carries the key
                Frameworks.keyHeaderSent(header[1]);
            }
        }
    }
}
