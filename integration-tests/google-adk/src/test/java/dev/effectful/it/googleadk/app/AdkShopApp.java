package dev.effectful.it.googleadk.app;

import com.google.adk.agents.LlmAgent;
import com.google.adk.events.Event;
import com.google.adk.models.Gemini;
import com.google.adk.runner.InMemoryRunner;
import com.google.adk.tools.FunctionTool;
import com.google.genai.Client;
import com.google.genai.types.Content;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.Part;
import dev.effectful.Task;
import dev.effectful.it.support.GeminiWire;
import dev.effectful.it.support.ScriptedModel;

import java.time.Duration;
import java.util.List;

/**
 * An application on Google ADK with no Effectful code but the tool annotations: an {@code LlmAgent} on
 * Gemini (scripted, on loopback), its tool made by {@code FunctionTool.create}, run by
 * {@code Runner.runAsync(userId, sessionId, message)}. Arguments: {@code SESSION USER}; system
 * properties {@code ledger} (the loopback service), {@code lose.ms} (how long the lost answer is waited
 * for), {@code phrasing}. Prints {@code RESULT} lines: the final answer, where each tool body ran
 * ({@code task/actor@thread}), and the task current after the run.
 */
public final class AdkShopApp {

    private AdkShopApp() {
    }

    public static void main(String[] args) throws Exception {
        String session = args[0];
        String user = args[1];
        ShopTools tools = new ShopTools(Duration.ofMillis(Long.getLong("lose.ms", 1500)));
        try (ScriptedModel gemini = new ScriptedModel(new GeminiWire(Integer.getInteger("phrasing", 0)))) {
            Client client = Client.builder().apiKey("scripted")
                    .httpOptions(HttpOptions.builder().baseUrl(gemini.url()).build()).build();
            LlmAgent agent = LlmAgent.builder().name("shop")
                    .model(new Gemini("gemini-2.5-flash", client))
                    .instruction("You charge customers' orders with the charge_card tool.")
                    .tools(FunctionTool.create(tools, "chargeCard"))
                    .build();
            InMemoryRunner runner = new InMemoryRunner(agent, "shop");
            // the application's own session id: a restarted process resumes the conversation under it
            runner.sessionService().createSession("shop", user, null, session).blockingGet();
            List<Event> events = runner.runAsync(user, session, Content.fromParts(Part.fromText("Charge order o-7, 89 dollars.")))
                    .toList().blockingGet();
            String answer = events.stream().filter(Event::finalResponse).reduce((a, b) -> b)
                    .flatMap(Event::content).map(Content::text).orElse("(no final answer)");
            System.out.println("RESULT answer " + answer);
            System.out.println("RESULT model_requests " + gemini.requests());
        }
        System.out.println("RESULT charge_bodies " + String.join(",", tools.charges.bodies()));
        System.out.println("RESULT task_after " + Task.current().map(Task::id).orElse("none"));
        System.exit(0); // ADK's schedulers and OkHttp keep threads alive; the test waits for the exit
    }
}
