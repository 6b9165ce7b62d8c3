package dev.effectful.it.embabel.app;

import com.embabel.agent.api.identity.SimpleUser;
import com.embabel.agent.api.tool.Tool;
import com.embabel.agent.api.tool.ToolCallContext;
import com.embabel.agent.core.AgentProcess;
import com.embabel.agent.core.Identities;
import com.embabel.agent.core.ProcessOptions;
import com.embabel.agent.spi.loop.ExitOnEmptyPolicy;
import com.embabel.agent.spi.loop.ImmediateThrowPolicy;
import com.embabel.agent.spi.loop.ToolInjectionStrategy;
import com.embabel.agent.spi.loop.ToolLoopResult;
import com.embabel.agent.spi.loop.support.DefaultToolLoop;
import com.embabel.chat.UserMessage;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.effectful.Task;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An application on Embabel's tool loop with no Effectful code but the tool annotations: the tools made
 * from an {@code @LlmTool} object ({@code Tool.fromInstance}), run by Embabel's {@code DefaultToolLoop}
 * against a scripted model on loopback, inside an agent process as Embabel's platform runs an action
 * ({@code AgentProcess.set}, the thread-bound process its actions see). Arguments: {@code PROCESS} (the
 * process id; {@code -} for a loop outside any process) and {@code TASK} (a task to open around the
 * process, the documented line for a process that must survive a restart; {@code -} for none). System
 * properties {@code ledger}, {@code lose.ms}, {@code phrasing}. Prints {@code RESULT} lines.
 */
public final class EmbabelShopApp {

    private EmbabelShopApp() {
    }

    public static void main(String[] args) throws Exception {
        String processId = args[0].equals("-") ? null : args[0];
        String taskId = args[1].equals("-") ? null : args[1];
        ShopTools tools = new ShopTools(Duration.ofMillis(Long.getLong("lose.ms", 1500)));
        try (ScriptedModel model = new ScriptedModel(Integer.getInteger("phrasing", 0))) {
            DefaultToolLoop loop = new DefaultToolLoop(model.sender(), new ObjectMapper(), ToolInjectionStrategy.Companion.getNONE(),
                    10, tool -> tool, List.of(), List.of(), List.of(), ToolCallContext.Companion.of(Map.of()),
                    ImmediateThrowPolicy.INSTANCE, ExitOnEmptyPolicy.INSTANCE);
            List<Tool> shop = Tool.fromInstance(tools);
            if (processId != null) {
                AgentProcess.Companion.set(process(processId));
            }
            String answer;
            if (taskId != null) {
                // the documented line: a process id is new after a restart, an order id is not
                try (Task task = Task.open(taskId, "alice", Duration.ofMinutes(2))) {
                    answer = run(loop, shop);
                }
            } else {
                answer = run(loop, shop);
            }
            System.out.println("RESULT answer " + answer);
        } finally {
            AgentProcess.Companion.remove();
        }
        System.out.println("RESULT charge_bodies " + String.join(",", tools.charges.bodies()));
        System.out.println("RESULT task_after " + Task.current().map(Task::id).orElse("none"));
        System.exit(0);
    }

    private static String run(DefaultToolLoop loop, List<Tool> shop) {
        ToolLoopResult<String> r = loop.execute(List.of(new UserMessage("Charge order o-7, 89 dollars.")), shop, text -> text);
        return r.getResult();
    }

    /**
     * The running process as its actions see it: its id and its options' user. A whole platform (Spring Boot,
     * a model provider's autoconfiguration) is not what this test is about.
     */
    private static AgentProcess process(String id) {
        ProcessOptions options = new ProcessOptions().withIdentities(new Identities(new SimpleUser("u-alice", "Alice", "alice", null)));
        return (AgentProcess) Proxy.newProxyInstance(AgentProcess.class.getClassLoader(), new Class<?>[] {AgentProcess.class},
                (proxy, method, a) -> switch (method.getName()) {
                    case "getId" -> id;
                    case "getProcessOptions" -> options;
                    case "toString" -> "AgentProcess[" + id + "]";
                    case "hashCode" -> id.hashCode();
                    case "equals" -> proxy == a[0];
                    default -> null;
                });
    }
}
