package dev.effectful.it.springai.app;

import dev.effectful.Task;
import dev.effectful.it.springai.app.ScriptedChatModel.Turn;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The application the Spring AI tests fork: a ChatClient over a scripted model, with the email tool.
 * No line of it mentions a task unless the scenario is about an explicit one. Prints
 * {@code RESULT name value} lines for the test.
 *
 * <pre>
 * conversation CONV TO   one call with conversation id CONV: send, answer lost, a rephrased retry
 * hang CONV TO           one call with CONV whose send never answers (the test kills the JVM)
 * resume CONV TO         after the kill: the same conversation, the model asks again, rephrased
 * own TO                 two calls without a conversation id, each: send, answer lost, a rephrased retry
 * explicit TASK CONV TO  the conversation call inside Task.open(TASK)
 * </pre>
 */
public final class SpringAiApp {

    private SpringAiApp() {
    }

    public static void main(String[] args) {
        String scenario = args[0];
        switch (scenario) {
            case "conversation" -> {
                ScriptedChatModel model = new ScriptedChatModel(sendTwice(args[2], "Your invoice", "Your invoice (resent)"));
                result("answer", inConversation(model, args[1]));
                report(model);
            }
            case "hang" -> {
                ScriptedChatModel model = new ScriptedChatModel(List.of(
                        Turn.call("send_email", args(args[2], "Your invoice")), Turn.answer("sent")));
                result("calling", "yes");
                result("answer", inConversation(model, args[1]));
            }
            case "resume" -> {
                ScriptedChatModel model = new ScriptedChatModel(List.of(
                        Turn.call("send_email", args(args[2], "Invoice, as promised")), Turn.answer("done")));
                result("answer", inConversation(model, args[1]));
                report(model);
            }
            case "own" -> {
                List<Turn> turns = new ArrayList<>(sendTwice(args[1], "Welcome", "Welcome aboard"));
                turns.addAll(sendTwice(args[1], "Welcome", "Welcome aboard"));
                ScriptedChatModel model = new ScriptedChatModel(turns);
                ChatClient client = client(model);
                result("answer1", client.prompt().user("welcome the user").tools(new EmailTools()).call().content());
                result("tasks_call1", String.join(",", EmailTools.TASKS_SEEN));
                EmailTools.TASKS_SEEN.clear();
                result("answer2", client.prompt().user("welcome the user").tools(new EmailTools()).call().content());
                result("tasks_call2", String.join(",", EmailTools.TASKS_SEEN));
                result("bodies", Integer.toString(EmailTools.BODIES.size()));
                result("tool_answers", String.join(" || ", model.toolAnswers()));
                result("task_after", Task.current().map(Task::id).orElse("(none)"));
            }
            case "explicit" -> {
                ScriptedChatModel model = new ScriptedChatModel(sendTwice(args[3], "Receipt", "Receipt, again"));
                try (Task task = Task.open(args[1], Duration.ofMinutes(2))) {
                    result("answer", inConversation(model, args[2]));
                    result("task_after_call", Task.current().map(Task::id).orElse("(none)"));
                }
                report(model);
            }
            default -> throw new IllegalArgumentException(scenario);
        }
        result("task_after", Task.current().map(Task::id).orElse("(none)"));
        result("spring_ai", springAi2() ? "2" : "1");
        System.out.flush();
    }

    /** The call with a conversation id, as the README's Spring AI section shows it. */
    static String inConversation(ScriptedChatModel model, String conversationId) {
        ChatClient chatClient = client(model);
        return chatClient.prompt()
                .user("send the invoice")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
                .tools(new EmailTools())
                .call()
                .content();
    }

    /**
     * Spring AI 2.0's ChatClient runs the tool loop itself (an advisor it registers); in 1.1 a vendor's
     * model runs it inside its call, which the scripted model does not, so there the 1.1 ToolCallAdvisor
     * runs it. Either way the loop runs inside the advised blocking call. The tests run on 2.0.1, and on
     * 1.1.2 with {@code -Dspring-ai.version=1.1.2}.
     */
    @SuppressWarnings({"deprecation", "removal"})
    static ChatClient client(ScriptedChatModel model) {
        ChatClient.Builder builder = ChatClient.builder(model);
        if (!springAi2()) {
            builder.defaultAdvisors(ToolCallAdvisor.builder().build());
        }
        return builder.build();
    }

    private static boolean springAi2() {
        try {
            Class.forName("org.springframework.ai.chat.client.advisor.ToolCallingAdvisor");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static List<Turn> sendTwice(String to, String subject, String rephrased) {
        return List.of(Turn.call("send_email", args(to, subject)), Turn.call("send_email", args(to, rephrased)),
                Turn.answer("done"));
    }

    private static String args(String to, String subject) {
        return "{\"to\":\"" + to + "\",\"subject\":\"" + subject + "\"}";
    }

    private static void report(ScriptedChatModel model) {
        result("tasks_seen", String.join(",", EmailTools.TASKS_SEEN));
        result("bodies", Integer.toString(EmailTools.BODIES.size()));
        result("tool_answers", String.join(" || ", model.toolAnswers()));
    }

    private static void result(String name, String value) {
        System.out.println("RESULT " + name + " " + String.valueOf(value).replace('\n', ' '));
    }
}
