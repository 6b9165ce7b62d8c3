package dev.effectful.instrumentation.jdkhttp;

import dev.effectful.agent.bridge.Frameworks;

import java.net.URLConnection;
import java.net.http.HttpRequest;
import java.util.Optional;

/**
 * The key header on requests of the JDK's two HTTP clients, run at their entry by the agent's inserted
 * call ({@link dev.effectful.instrumentation.api.EntryCall}), in the agent's own loader. The
 * application's own header of that name wins; once the key is on the request the journal records that
 * it goes out ({@code key_sent}), before the request leaves. Whatever throws, the request goes out as the
 * application made it (the bridge keeps the original value).
 */
final class KeyHeaderHooks {

    private KeyHeaderHooks() {
    }

    /**
     * {@code HttpClientImpl.sendAsync}'s request: {@code HttpRequest} is immutable, so a copy carrying the
     * header replaces it; the copy keeps every other header, the body, the timeout and the version.
     */
    static Object httpRequest(Object value) {
        String[] header = Frameworks.keyHeader();
        if (header == null || !(value instanceof HttpRequest)) {
            return value;
        }
        HttpRequest request = (HttpRequest) value;
        Optional<String> own = request.headers().firstValue(header[0]);
        if (own.isPresent()) {
            Frameworks.keyHeaderKept(own.get());
            return request;
        }
        HttpRequest copy = HttpRequest.newBuilder(request, Frameworks.everyHeader()).header(header[0], header[1]).build();
        Frameworks.keyHeaderSent(header[1]); // the copy is what sendAsync sends: journaled before it leaves
        return copy;
    }

    /**
     * {@code HttpURLConnection} at {@code connect}, {@code getOutputStream} and {@code getInputStream}
     * (whichever the application calls first opens the connection): a request property. Once the
     * connection is open the JDK refuses new properties; that refusal leaves the request as it was.
     */
    static Object urlConnection(Object value) {
        String[] header = Frameworks.keyHeader();
        if (header == null || !(value instanceof URLConnection)) {
            return value;
        }
        URLConnection connection = (URLConnection) value;
        String own = connection.getRequestProperty(header[0]);
        if (own != null) {
            Frameworks.keyHeaderKept(own);
        } else {
            connection.setRequestProperty(header[0], header[1]);
            Frameworks.keyHeaderSent(header[1]); // reached only when the property was taken
        }
        return value;
    }
}
