package dev.effectful.instrumentation.okhttp;

import dev.effectful.agent.bridge.Frameworks;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import okhttp3.Request;

/**
 * Inlined into {@code OkHttpClient.newCall(Request)}: the call is made for a copy of the request that
 * carries the key header, unless the request has that header already (the application's own wins).
 * The parameter is typed {@code Object} so that describing this advice never needs OkHttp's classes;
 * the body, inlined into OkHttp, names them freely. Whatever fails, the original request goes out. Once
 * the copy is made the journal records that the key goes out ({@code key_sent}).
 */
public final class NewCallKeyHeader {

    private NewCallKeyHeader() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object request) {
        String[] header = Frameworks.keyHeader();
        if (header != null && request instanceof Request) {
            Request original = (Request) request;
            String own = original.header(header[0]);
            if (own != null) {
                Frameworks.keyHeaderKept(own);
            } else {
                request = original.newBuilder().header(header[0], header[1]).build();
                // newCall comes before execute or enqueue: journaled before the request can leave
                Frameworks.keyHeaderSent(header[1]);
            }
        }
    }
}
