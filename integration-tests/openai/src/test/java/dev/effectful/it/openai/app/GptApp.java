package dev.effectful.it.openai.app;

import com.openai.client.OpenAIClient;
import com.openai.client.OpenAIClientAsync;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.client.okhttp.OpenAIOkHttpClientAsync;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import dev.effectful.Task;
import dev.effectful.it.support.OpenAiResponsesWire;
import dev.effectful.it.support.KeyedCharge;
import dev.effectful.it.support.ScriptedModel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An application on the OpenAI Java SDK's Responses API with a scripted model on loopback: the
 * function-calling loop written by hand, as the SDK has no runner. Arguments: {@code MODE CONVERSATION}.
 * Modes: {@code sync} (the loop inside {@code Task.open(conversation, ...)}, the documented line),
 * {@code bare} (the same loop without it), {@code async} (the async client, inside {@code Task.open};
 * the model's answer to the first tool result is a 429 the SDK retries). Prints {@code RESULT} lines.
 */
public final class GptApp {

    private GptApp() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String conversation = args[1];
        OpenAiResponsesWire wire = new OpenAiResponsesWire(mode.equals("async"));
        try (ScriptedModel model = new ScriptedModel(wire)) {
            ResponseCreateParams params = ResponseCreateParams.builder().model("gpt-4.1")
                    .conversation(conversation)                 // the server keeps the history
                    .addTool(ChargeCard.class)
                    .input("Charge order o-7, 89 dollars.")
                    .build();
            String answer;
            switch (mode) {
                case "sync" -> {
                    OpenAIClient client = OpenAIOkHttpClient.builder().baseUrl(model.url()).apiKey("sk-test").build();
                    try (Task task = Task.open(conversation, "ada", Duration.ofMinutes(5))) {
                        answer = runLoop(client, params);
                    }
                }
                case "bare" -> answer = runLoop(OpenAIOkHttpClient.builder().baseUrl(model.url()).apiKey("sk-test").build(), params);
                case "async" -> {
                    OpenAIClientAsync client = OpenAIOkHttpClientAsync.builder().baseUrl(model.url()).apiKey("sk-test").build();
                    try (Task task = Task.open(conversation, "ada", Duration.ofMinutes(1))) {
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

    /** The SDK's function-calling loop: call the model, run the functions it asks for, send their outputs. */
    private static String runLoop(OpenAIClient client, ResponseCreateParams params) {
        Response response = client.responses().create(params);
        List<ResponseInputItem> outputs = callFunctions(response);
        while (!outputs.isEmpty()) {
            response = client.responses().create(params.toBuilder().inputOfResponse(outputs).build());
            outputs = callFunctions(response);
        }
        return text(response);
    }

    /** One turn of a hand-written async loop: the model, then the functions it asked for, then the next turn. */
    private static CompletableFuture<String> turn(OpenAIClientAsync client, ResponseCreateParams params) {
        return client.responses().create(params).thenCompose(response -> {
            List<ResponseInputItem> outputs = callFunctions(response);
            return outputs.isEmpty() ? CompletableFuture.completedFuture(text(response))
                    : turn(client, params.toBuilder().inputOfResponse(outputs).build());
        });
    }

    private static List<ResponseInputItem> callFunctions(Response response) {
        List<ResponseInputItem> outputs = new ArrayList<>();
        for (ResponseOutputItem item : response.output()) {
            if (item.functionCall().isEmpty()) {
                continue;
            }
            ResponseFunctionToolCall call = item.functionCall().get();
            String result;
            try {
                result = call.arguments(ChargeCard.class).execute();
            } catch (RuntimeException e) {
                result = "error: " + e;
            }
            outputs.add(ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                    .callId(call.callId()).output(result).build()));
        }
        return outputs;
    }

    private static String text(Response response) {
        StringBuilder text = new StringBuilder();
        for (ResponseOutputItem item : response.output()) {
            item.message().ifPresent(m -> m.content().forEach(c -> c.outputText().ifPresent(t -> text.append(t.text()))));
        }
        return text.toString();
    }
}
