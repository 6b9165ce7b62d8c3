package dev.effectful.instrumentation.okhttp;

import dev.effectful.agent.bridge.Frameworks;

import java.lang.reflect.Method;

/**
 * The key header on an OkHttp request, run at the entry of {@code OkHttpClient.newCall(Request)} by the
 * agent's inserted call ({@link dev.effectful.instrumentation.api.EntryCall}): the call is made for a copy
 * of the request that carries the header, unless the request has that header already (the application's
 * own wins). It runs in the agent's loader, which cannot see the application's OkHttp: the request is
 * reached through its public methods, reflectively ({@code header}, {@code newBuilder}, the builder's
 * {@code header} and {@code build}, the same in 4.x and 5.x). Whatever fails, the original request goes out.
 * Once the copy is made the journal records that the key goes out ({@code key_sent}): {@code newCall}
 * comes before {@code execute} or {@code enqueue}, so before the request can leave.
 */
final class KeyHeaderHook {

    private KeyHeaderHook() {
    }

    static Object request(Object request) {
        String[] header = Frameworks.keyHeader();
        if (header == null || request == null) {
            return request;
        }
        try {
            Class<?> type = request.getClass();
            Object own = type.getMethod("header", String.class).invoke(request, header[0]);
            if (own != null) {
                Frameworks.keyHeaderKept((String) own);
                return request;
            }
            Object builder = type.getMethod("newBuilder").invoke(request);
            Method set = builder.getClass().getMethod("header", String.class, String.class);
            Object copy = builder.getClass().getMethod("build").invoke(set.invoke(builder, header[0], header[1]));
            Frameworks.keyHeaderSent(header[1]);
            return copy;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return request;
        }
    }
}
