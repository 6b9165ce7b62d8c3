package dev.effectful.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.Task;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * The assistant process: one LangChain4j conversation inside one Effectful task. The demo starts
 * it as a child JVM so that it can be killed with {@code kill -9} and started again on the same
 * task id and journal, as a job runner would after a crash.
 *
 * <p>Arguments: {@code SERVICE_URL TASK_ID ACT TRANSCRIPT_FILE}, ACT being {@code first} or {@code resume}.
 */
public final class AssistantMain {

    static final String TASK_PROMPT = "Ada (customer c-42, ada@example.com) wants a USB-C dock and a 2 m USB-C cable."
            + " Find them, order them with the note 'leave at reception', email her the confirmation,"
            + " charge her card 8900 cents for the order, and cancel her old order o-1001.";

    interface Assistant {
        String chat(String message);
    }

    private AssistantMain() {
    }

    public static void main(String[] args) throws Exception {
        String service = args[0];
        String taskId = args[1];
        boolean first = args[2].equals("first");
        Path transcript = Path.of(args[3]);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);

        ChatModel model = realModel();
        if (model == null) {
            model = new ScriptedModel(first);
        }
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .tools(new OrderTools(service))
                .beforeToolExecution(b -> append(transcript, Map.of("ev", "start", "act", args[2], "id", b.request().id(),
                        "tool", b.request().name(), "args", b.request().arguments(), "at", System.currentTimeMillis())))
                .afterToolExecution(t -> {
                    append(transcript, Map.of("ev", "end", "act", args[2], "id", t.request().id(), "tool", t.request().name(),
                            "result", String.valueOf(t.result()), "failed", t.hasFailed(), "at", System.currentTimeMillis()));
                    // a trace, cut to fit 100 columns; the summary at the end cuts nothing
                    out.println("    " + pad(t.request().name(), 15) + shorten(t.request().arguments(), 36) + " -> "
                            + shorten(String.valueOf(t.result()), 40));
                })
                .build();

        String prompt = first ? TASK_PROMPT : "You were restarted after a crash. Do the task again from the start: " + TASK_PROMPT;
        // the task id, not the process, is the identity of the work: the restarted process reuses it
        try (Task task = Task.open(taskId, Duration.ofSeconds(45))) {
            String answer = assistant.chat(prompt);
            out.println("    model: " + shorten(answer, 89));
        }
        out.flush();
        System.exit(0);
    }

    /** A real model when the environment names one; null for the scripted, offline one. */
    static ChatModel realModel() {
        String key = System.getenv("OPENAI_API_KEY");
        String base = System.getenv("OPENAI_BASE_URL");
        if ("scripted".equals(System.getProperty("demo.model")) || ((key == null || key.isBlank()) && (base == null || base.isBlank()))) {
            return null;
        }
        OpenAiChatModel.OpenAiChatModelBuilder b = OpenAiChatModel.builder()
                .apiKey(key == null || key.isBlank() ? "ollama" : key)
                .modelName(System.getenv().getOrDefault("OPENAI_MODEL", "gpt-4o-mini"))
                .temperature(0.0)
                .timeout(Duration.ofSeconds(30));
        if (base != null && !base.isBlank()) {
            b.baseUrl(base);
        }
        return b.build();
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One line per event, appended and flushed at once: a kill -9 loses nothing already written. */
    private static synchronized void append(Path file, Map<String, Object> event) {
        try {
            Files.writeString(file, JSON.writeValueAsString(event) + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String shorten(String s, int max) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() <= max ? one : one.substring(0, max - 1) + "…";
    }

    static String pad(String s, int width) {
        return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
    }
}
