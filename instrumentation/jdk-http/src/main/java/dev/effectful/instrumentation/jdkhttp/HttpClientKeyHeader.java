package dev.effectful.instrumentation.jdkhttp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;

import java.net.http.HttpRequest;

/**
 * Inlined into {@code HttpClientImpl.sendAsync(request, handler, pushHandler, executor)}: replaces the
 * request with a copy carrying the key header, unless it has that header already (the application's own
 * wins). {@code HttpRequest} is immutable, so the copy is the only way; it keeps every other header, the
 * body, the timeout and the version. Whatever fails, the original request goes out. Once the copy is made
 * the journal records that the key goes out ({@code key_sent}), before the request is sent.
 */
public final class HttpClientKeyHeader {

    private HttpClientKeyHeader() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.Argument(value = 0, readOnly = false) HttpRequest request) {
        String[] header = Frameworks.keyHeader();
        if (header != null && request != null) {
            java.util.Optional<String> own = request.headers().firstValue(header[0]);
            if (own.isPresent()) {
                Frameworks.keyHeaderKept(own.get());
            } else {
                request = HttpRequest.newBuilder(request, Frameworks.everyHeader()).header(header[0], header[1]).build();
                // the copy is what sendAsync sends: journaled before it leaves
                Frameworks.keyHeaderSent(header[1]);
            }
        }
    }
}
