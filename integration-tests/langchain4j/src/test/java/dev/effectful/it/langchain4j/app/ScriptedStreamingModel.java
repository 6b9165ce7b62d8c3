package dev.effectful.it.langchain4j.app;

import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;

/**
 * The scripted model as a streaming one: it answers on a thread of its own, as a streaming client's
 * I/O thread would, after the AI-service method has returned its {@code TokenStream}.
 */
public final class ScriptedStreamingModel implements StreamingChatModel {

    private final ScriptedModel script;

    public ScriptedStreamingModel(ScriptedModel script) {
        this.script = script;
    }

    @Override
    public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
        Thread t = new Thread(() -> {
            try {
                handler.onCompleteResponse(script.doChat(request));
            } catch (Throwable e) {
                handler.onError(e);
            }
        }, "stream-io");
        t.setDaemon(true);
        t.start();
    }
}
