package dev.effectful.agent.integration;

import dev.effectful.Task;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The task of a loop object entered step by step (an SDK's tool runner): the same task at every step of
 * one object, another for another object, the thread left as it was between steps, and the
 * application's own task always winning.
 */
class OwnedTasksTest {

    private final FrameworkTasks hooks = new FrameworkTasks(Duration.ofMinutes(5));

    @Test
    void everyStepOfOneRunnerIsInTheSameTaskAndTheThreadIsLeftAsItWas() {
        Object runner = new Object();
        String first = step(runner, "ada");
        assertThat(Task.current()).as("nothing left between steps").isEmpty();
        String second = step(runner, "ada");

        assertThat(first).startsWith("anthropic-").isEqualTo(second);
        assertThat(step(new Object(), null)).as("another runner, another task").isNotEqualTo(first);
    }

    @Test
    void theRunnersTaskKeepsOneDeadlineAcrossSteps() throws Exception {
        FrameworkTasks shortBudget = new FrameworkTasks(Duration.ofSeconds(30));
        Object runner = new Object();
        Object token = shortBudget.enterOwnedTask("anthropic", runner, null);
        Duration atFirst = Task.current().orElseThrow().remaining();
        shortBudget.exitOwnedTask(token);
        Thread.sleep(20);

        token = shortBudget.enterOwnedTask("anthropic", runner, null);
        try {
            assertThat(Task.current().orElseThrow().remaining()).isLessThan(atFirst);
        } finally {
            shortBudget.exitOwnedTask(token);
        }
    }

    @Test
    void anOpenTaskWinsAndStaysCurrent() {
        try (Task mine = Task.open("order-77", Duration.ofSeconds(10))) {
            assertThat(hooks.enterOwnedTask("anthropic", new Object(), "ada")).isNull();
            assertThat(Task.current()).contains(mine);
        }
    }

    private String step(Object runner, String actor) {
        Object token = hooks.enterOwnedTask("anthropic", runner, actor);
        try {
            Task task = Task.current().orElseThrow();
            assertThat(task.actor()).isEqualTo(actor == null ? "" : actor);
            return task.id();
        } finally {
            hooks.exitOwnedTask(token);
        }
    }
}
