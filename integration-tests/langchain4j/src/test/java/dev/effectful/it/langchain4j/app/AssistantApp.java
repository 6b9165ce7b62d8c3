package dev.effectful.it.langchain4j.app;

import dev.effectful.Task;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.UserName;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An application on LangChain4j AiServices with no Effectful code but the tool annotations (mode
 * {@code explicit} aside). Arguments: {@code MODE CONVERSATION}; system properties {@code ledger} (the
 * loopback service), {@code lose.ms} (how long the lost answer is waited for), {@code phrasing}.
 * Prints {@code RESULT} lines: the answers, where each tool body ran ({@code task@thread}), and the task
 * current after the invocation returned.
 */
public final class AssistantApp {

    /** With a conversation: the memory id is the task. */
    public interface ConversationAssistant {
        String chat(@MemoryId String conversation, @UserMessage String message);
    }

    /** With a conversation and a user: the user name is the actor. */
    public interface NamedAssistant {
        String chat(@MemoryId String conversation, @UserName String user, @UserMessage String message);
    }

    /** Streaming: the method returns before the model is called. */
    public interface StreamingAssistant {
        TokenStream chat(@MemoryId String conversation, @UserMessage String message);
    }

    /** Neither: every invocation is a task of its own. */
    public interface PlainAssistant {
        String chat(String message);
    }

    private AssistantApp() {
    }

    public static void main(String[] args) {
        String mode = args[0];
        String conversation = args.length > 1 ? args[1] : null;
        ShopTools tools = new ShopTools(Duration.ofMillis(Long.getLong("lose.ms", 1500)));
        ScriptedModel model = new ScriptedModel(mode.equals("memory"), Integer.getInteger("phrasing", 0));
        switch (mode) {
            case "memory", "crash", "resume" -> {
                AiServices<ConversationAssistant> builder = AiServices.builder(ConversationAssistant.class)
                        .chatModel(model)
                        .tools(tools)
                        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(30));
                if (mode.equals("memory")) {
                    builder.executeToolsConcurrently(); // two tool calls in one turn run on LangChain4j's executor
                }
                ConversationAssistant assistant = builder.build();
                String answer = assistant.chat(conversation, "Charge order o-7, 89 dollars.");
                System.out.println("RESULT answer " + answer);
            }
            case "explicit" -> {
                ConversationAssistant a = AiServices.builder(ConversationAssistant.class).chatModel(model).tools(tools)
                        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(30)).build();
                try (Task task = Task.open("order-77", "ops", Duration.ofSeconds(60))) {
                    System.out.println("RESULT answer " + a.chat(conversation, "Charge order o-4, 89 dollars."));
                }
            }
            case "user" -> {
                NamedAssistant a = AiServices.builder(NamedAssistant.class).chatModel(model).tools(tools)
                        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(30)).build();
                System.out.println("RESULT answer " + a.chat(conversation, "ada", "Charge order o-5, 89 dollars."));
            }
            case "nomemory" -> {
                PlainAssistant a = AiServices.builder(PlainAssistant.class).chatModel(model).tools(tools).build();
                System.out.println("RESULT answer1 " + a.chat("Charge order o-9, 89 dollars."));
                System.out.println("RESULT answer2 " + a.chat("Charge order o-9, 89 dollars."));
            }
            case "streaming" -> {
                StreamingAssistant a = AiServices.builder(StreamingAssistant.class).tools(tools)
                        .streamingChatModel(new ScriptedStreamingModel(model))
                        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(30)).build();
                CompletableFuture<ChatResponse> done = new CompletableFuture<>();
                a.chat(conversation, "Charge order o-6, 89 dollars.").onPartialResponse(token -> { })
                        .onCompleteResponse(done::complete).onError(done::completeExceptionally).start();
                System.out.println("RESULT answer " + done.orTimeout(60, TimeUnit.SECONDS).join().aiMessage().text());
            }
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("RESULT charge_bodies " + String.join(",", tools.chargeBodies));
        System.out.println("RESULT lookups " + String.join(",", tools.lookups));
        System.out.println("RESULT task_after " + Task.current().map(Task::id).orElse("none"));
        // LangChain4j's tool executor may keep non-daemon threads alive; the test waits for the exit
        System.exit(0);
    }
}
