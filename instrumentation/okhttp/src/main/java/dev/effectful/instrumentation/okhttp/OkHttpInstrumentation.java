package dev.effectful.instrumentation.okhttp;

import dev.effectful.instrumentation.api.EntryCall;
import dev.effectful.instrumentation.api.NamedInstrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;

import java.util.List;

/**
 * The intent key in the tool's key header ({@code @EffectfulTool(keyHeader = ...)}) on OkHttp requests
 * (4.x and 5.x). Every call, synchronous or enqueued, and every interceptor chain starts at
 * {@code OkHttpClient.newCall(Request)}, on the thread that makes the call: the tool's body.
 */
public final class OkHttpInstrumentation extends NamedInstrumentation {

    static final String CLIENT = "okhttp3/OkHttpClient";

    /** Made by {@link java.util.ServiceLoader} in the agent's loader. */
    public OkHttpInstrumentation() {
        super("okhttp", CLIENT);
    }

    @Override
    public List<EntryCall> entryCalls(String internalName) {
        return CLIENT.equals(internalName)
                ? List.of(new EntryCall("newCall", "(Lokhttp3/Request;)Lokhttp3/Call;", 0, true, KeyHeaderHook::request))
                : List.of();
    }

    /** Everything is an entry call: no Byte Buddy advice. */
    @Override
    public List<AsmVisitorWrapper> advice(String internalName) {
        return List.of();
    }
}
