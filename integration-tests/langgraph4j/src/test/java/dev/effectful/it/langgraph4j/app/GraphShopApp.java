package dev.effectful.it.langgraph4j.app;

import dev.effectful.Task;
import dev.effectful.it.support.OpenAiChatWire;
import dev.effectful.it.support.ScriptedModel;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.openai.OpenAiChatModel;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.agentexecutor.AgentExecutor;

import java.time.Duration;
import java.util.Map;

/**
 * An application on LangGraph4j's LangChain4j agent executor with no Effectful code but the tool
 * annotations: an OpenAI chat model (scripted, on loopback), a tool object, one run per request with
 * the conversation's thread id. Arguments: {@code THREAD}; system properties {@code ledger} (the loopback
 * service), {@code lose.ms} (how long the lost answer is waited for), {@code phrasing}. Prints
 * {@code RESULT} lines: the final answer, where each tool body ran ({@code task@thread}), and the task
 * current after the run.
 */
public final class GraphShopApp {

    private GraphShopApp() {
    }

    public static void main(String[] args) throws Exception {
        String thread = args[0];
        ShopTools tools = new ShopTools(Duration.ofMillis(Long.getLong("lose.ms", 1500)));
        // LangChain4j's client appends chat/completions to the base URL, so the base ends in /v1
        try (ScriptedModel openAi = new ScriptedModel(new OpenAiChatWire(Integer.getInteger("phrasing", 0), "/v1"))) {
            OpenAiChatModel model = OpenAiChatModel.builder().baseUrl(openAi.url()).apiKey("scripted")
                    .modelName("gpt-4o-mini").timeout(Duration.ofSeconds(30)).build();
            CompiledGraph<AgentExecutor.State> graph = AgentExecutor.builder()
                    .chatModel(model)
                    .toolsFromObject(tools)
                    .build()
                    .compile();
            RunnableConfig config = RunnableConfig.builder().threadId(thread).build();
            AgentExecutor.State state = graph.invoke(Map.of("messages", UserMessage.from("Charge order o-7, 89 dollars.")), config)
                    .orElseThrow();
            System.out.println("RESULT answer " + state.finalResponse().orElse("(no final answer)"));
        }
        System.out.println("RESULT charge_bodies " + String.join(",", tools.charges.bodies()));
        System.out.println("RESULT task_after " + Task.current().map(Task::id).orElse("none"));
        System.exit(0);
    }
}
