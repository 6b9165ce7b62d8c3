package dev.effectful.it.langchain4j.app;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays the model offline, with the habit that makes real models dangerous: a charge whose answer
 * failed is issued again at once, same order, the amount worded differently. It reads only the
 * messages LangChain4j hands it (since the last user message), so it behaves the same in a fresh JVM.
 */
public final class ScriptedModel implements ChatModel {

    private static final String[] AMOUNTS = {"89 dollars", "$89.00", "8900 cents", "USD 89.00", "eighty-nine dollars"};
    private static final Pattern ORDER = Pattern.compile("o-\\d+");

    private final boolean lookupAlongside;
    private final int phrasing;
    private final AtomicInteger callSeq = new AtomicInteger();

    /**
     * @param lookupAlongside whether the first turn also asks lookup_order, so that LangChain4j (with
     *                        concurrent execution) runs the two tool calls on its executor's threads
     * @param phrasing        the first wording used (a restarted model words it differently)
     */
    public ScriptedModel(boolean lookupAlongside, int phrasing) {
        this.lookupAlongside = lookupAlongside;
        this.phrasing = phrasing;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        int lastUser = -1;
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof UserMessage) {
                lastUser = i;
            }
        }
        Matcher m = ORDER.matcher(((UserMessage) messages.get(lastUser)).singleText());
        String order = m.find() ? m.group() : "o-0";
        List<ToolExecutionResultMessage> charges = new ArrayList<>();
        for (ChatMessage msg : messages.subList(lastUser + 1, messages.size())) {
            if (msg instanceof ToolExecutionResultMessage r && "charge_card".equals(r.toolName())) {
                charges.add(r);
            }
        }
        if (charges.isEmpty()) {
            List<ToolExecutionRequest> calls = new ArrayList<>();
            if (lookupAlongside) {
                calls.add(call("lookup_order", "{\"orderId\":\"" + order + "\"}"));
            }
            calls.add(charge(order, 0));
            return ChatResponse.builder().aiMessage(AiMessage.from(calls)).build();
        }
        ToolExecutionResultMessage last = charges.get(charges.size() - 1);
        String text = last.text() == null ? "" : last.text();
        boolean failed = Boolean.TRUE.equals(last.isError())
                || (text.startsWith("{\"outcome\":") && !text.startsWith("{\"outcome\":\"ok\""));
        if (failed && charges.size() < 3) {
            return ChatResponse.builder().aiMessage(AiMessage.from(List.of(charge(order, charges.size())))).build();
        }
        return ChatResponse.builder().aiMessage(AiMessage.from("charge " + order + ": " + text)).build();
    }

    private ToolExecutionRequest charge(String order, int retry) {
        String amount = AMOUNTS[(phrasing + retry) % AMOUNTS.length];
        return call("charge_card", "{\"orderId\":\"" + order + "\",\"amount\":\"" + amount + "\"}");
    }

    private ToolExecutionRequest call(String tool, String args) {
        return ToolExecutionRequest.builder().id("call_" + callSeq.incrementAndGet()).name(tool).arguments(args).build();
    }
}
