package dev.effectful.it.springai.app;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A chat model that answers from a script instead of the network: each turn either asks for one
 * tool call (as a real model does, with a fresh call id) or ends with text. Spring AI's own
 * tool-calling loop (the ChatClient's ToolCallingAdvisor and DefaultToolCallingManager) executes the
 * calls; the model only records the tool answers it is handed, as the model would read them.
 */
public final class ScriptedChatModel implements ChatModel {

    /** One scripted turn: a tool call with its JSON arguments, or (tool null) the final text. */
    public record Turn(String tool, String argumentsJson, String text) {
        public static Turn call(String tool, String argumentsJson) {
            return new Turn(tool, argumentsJson, null);
        }

        public static Turn answer(String text) {
            return new Turn(null, null, text);
        }
    }

    private final Deque<Turn> script;
    private final List<String> toolAnswers = new ArrayList<>();
    private final AtomicInteger ids = new AtomicInteger();

    public ScriptedChatModel(List<Turn> turns) {
        this.script = new ConcurrentLinkedDeque<>(turns);
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        Message last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
        if (last instanceof ToolResponseMessage answers) {
            answers.getResponses().forEach(r -> toolAnswers.add(r.responseData()));
        }
        Turn turn = script.poll();
        if (turn == null) {
            throw new IllegalStateException("the script has no more turns");
        }
        AssistantMessage message = turn.tool() == null
                ? AssistantMessage.builder().content(turn.text()).build()
                : AssistantMessage.builder().content("")
                        .toolCalls(List.of(new AssistantMessage.ToolCall("call-" + ids.incrementAndGet(), "function",
                                turn.tool(), turn.argumentsJson())))
                        .build();
        return new ChatResponse(List.of(new Generation(message)));
    }

    /**
     * Tool-calling options, so that the ChatClient registers the tools and runs its tool loop. Both
     * names, without {@code @Override}: Spring AI 2.0 asks {@code getOptions()}, 1.1 {@code getDefaultOptions()}.
     */
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    public ChatOptions getDefaultOptions() {
        return getOptions();
    }

    /** What the tools answered, in order, as the model saw it. */
    public List<String> toolAnswers() {
        return List.copyOf(toolAnswers);
    }
}
