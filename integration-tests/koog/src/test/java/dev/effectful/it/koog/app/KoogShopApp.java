package dev.effectful.it.koog.app;

import ai.koog.agents.core.agent.AIAgent;
import ai.koog.agents.core.tools.Tool;
import ai.koog.agents.core.tools.ToolRegistry;
import ai.koog.prompt.executor.clients.ConnectionTimeoutConfig;
import ai.koog.prompt.executor.clients.openai.OpenAIClientSettings;
import ai.koog.prompt.executor.clients.openai.OpenAILLMClient;
import ai.koog.prompt.executor.clients.openai.OpenAIModels;
import ai.koog.prompt.executor.llms.SingleLLMPromptExecutor;
import dev.effectful.Task;
import dev.effectful.it.support.OpenAiChatWire;
import dev.effectful.it.support.ScriptedModel;

import java.time.Duration;
import java.util.List;

/**
 * An application on JetBrains Koog (its Java API) with no Effectful code but the tool annotations: an
 * agent on OpenAI (scripted, on loopback) with a {@code ToolSet}, run with {@code agent.run(input,
 * sessionId)}. Arguments: {@code SESSION} ({@code -} for none); system properties {@code ledger} (the
 * loopback service), {@code lose.ms} (how long the lost answer is waited for), {@code phrasing}. Prints
 * {@code RESULT} lines: the final answer, where each tool body ran ({@code task@thread}), and the task
 * current after the run.
 */
public final class KoogShopApp {

    private KoogShopApp() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void main(String[] args) throws Exception {
        String session = args[0].equals("-") ? null : args[0];
        ShopTools tools = new ShopTools(Duration.ofMillis(Long.getLong("lose.ms", 1500)));
        // Koog adds v1/... itself (the paths below), so the base URL is the bare address
        try (ScriptedModel openAi = new ScriptedModel(new OpenAiChatWire(Integer.getInteger("phrasing", 0), ""))) {
            OpenAIClientSettings settings = new OpenAIClientSettings(openAi.url(), new ConnectionTimeoutConfig(),
                    "v1/chat/completions", "v1/responses", "v1/embeddings", "v1/moderations", "v1/models");
            AIAgent<String, String> agent = AIAgent.builder()
                    .promptExecutor(new SingleLLMPromptExecutor(new OpenAILLMClient("scripted", settings)))
                    .llmModel(OpenAIModels.Chat.GPT4o)
                    .toolRegistry(ToolRegistry.builder().tools((List<Tool<?, ?>>) (List) tools.asTools()).build())
                    .systemPrompt("You charge customers' orders with the chargeCard tool.")
                    .build();
            String answer = agent.run("Charge order o-7, 89 dollars.", session);   // task: the run id (the session id)
            System.out.println("RESULT answer " + answer);
        }
        System.out.println("RESULT charge_bodies " + String.join(",", tools.charges.bodies()));
        System.out.println("RESULT task_after " + Task.current().map(Task::id).orElse("none"));
        System.exit(0);
    }
}
