package dev.effectful.it.anthropic.app;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.AnthropicClientAsync;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClientAsync;
import com.anthropic.helpers.BetaToolRunner;
import com.anthropic.models.beta.messages.BetaContentBlock;
import com.anthropic.models.beta.messages.BetaContentBlockParam;
import com.anthropic.models.beta.messages.BetaMessage;
import com.anthropic.models.beta.messages.BetaMetadata;
import com.anthropic.models.beta.messages.BetaToolResultBlockParam;
import com.anthropic.models.beta.messages.BetaToolUseBlock;
import com.anthropic.models.beta.messages.MessageCreateParams;
import dev.effectful.Task;
import dev.effectful.it.support.AnthropicMessagesWire;
import dev.effectful.it.support.KeyedCharge;
import dev.effectful.it.support.ScriptedModel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An application on the Anthropic Java SDK with a scripted model on loopback. Modes:
 * <ul>
 *   <li>{@code runner}: a {@code BetaToolRunner}, no Effectful code but the tool's annotations;</li>
 *   <li>{@code runner-task}: the same loop inside {@code Task.open("order-o-7", ...)}, the documented line
 *       that gives the loop an id a restart finds again;</li>
 *   <li>{@code async}: the async client in a hand-written loop inside {@code Task.open}; the model's answer
 *       to the first tool result is a 429 the SDK retries.</li>
 * </ul>
 * Prints {@code RESULT} lines: the last text, where each tool body ran ({@code task@thread}), the task
 * current after the loop.
 */
public final class ClaudeApp {

    private ClaudeApp() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        AnthropicMessagesWire wire = new AnthropicMessagesWire(mode.equals("async"));
        try (ScriptedModel model = new ScriptedModel(wire)) {
            MessageCreateParams params = MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(1024)
                    .addTool(ChargeCard.class)
                    .metadata(BetaMetadata.builder().userId("ada").build())
                    .addUserMessage("Charge order o-7, 89 dollars.")
                    .build();
            String answer;
            switch (mode) {
                case "runner" -> answer = runLoop(model, params);
                case "runner-task" -> {
                    try (Task task = Task.open("order-o-7", "ada", Duration.ofMinutes(5))) {
                        answer = runLoop(model, params);
                    }
                }
                case "async" -> {
                    AnthropicClientAsync client = AnthropicOkHttpClientAsync.builder().baseUrl(model.url())
                            .apiKey("sk-test").build();
                    try (Task task = Task.open("order-o-9", "ada", Duration.ofMinutes(1))) {
                        answer = turn(client, params).get(60, TimeUnit.SECONDS);
                    }
                    System.out.println("RESULT rate_limited " + wire.rateLimited());
                }
                default -> throw new IllegalArgumentException(mode);
            }
            System.out.println("RESULT answer " + answer);
        }
        System.out.println("RESULT bodies " + String.join(",", KeyedCharge.BODIES));
        System.out.println("RESULT task_after " + Task.current().map(Task::id).orElse("none"));
        System.exit(0);
    }

    private static String runLoop(ScriptedModel model, MessageCreateParams params) {
        AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(model.url()).apiKey("sk-test").build();
        BetaToolRunner runner = client.beta().messages().toolRunner(params);
        String last = "";
        for (BetaMessage message : runner) {
            for (BetaContentBlock block : message.content()) {
                if (block.text().isPresent()) {
                    last = block.text().get().text();
                }
            }
        }
        return last;
    }

    /** One turn of a hand-written async loop: the model, then the tools it asked for, then the next turn. */
    private static CompletableFuture<String> turn(AnthropicClientAsync client, MessageCreateParams params) {
        return client.beta().messages().create(params).thenCompose(message -> {
            List<BetaContentBlockParam> results = new ArrayList<>();
            String text = "";
            for (BetaContentBlock block : message.content()) {
                block.toolUse().ifPresent(use -> results.add(BetaContentBlockParam.ofToolResult(run(use))));
                if (block.text().isPresent()) {
                    text = block.text().get().text();
                }
            }
            if (results.isEmpty()) {
                return CompletableFuture.completedFuture(text);
            }
            return turn(client, params.toBuilder().addMessage(message).addUserMessageOfContentBlockParams(results).build());
        });
    }

    private static BetaToolResultBlockParam run(BetaToolUseBlock use) {
        BetaToolResultBlockParam.Builder result = BetaToolResultBlockParam.builder().toolUseId(use.id());
        try {
            return result.content(use.input(ChargeCard.class).get()).build();
        } catch (RuntimeException e) {
            return result.content(String.valueOf(e)).isError(true).build();
        }
    }
}
