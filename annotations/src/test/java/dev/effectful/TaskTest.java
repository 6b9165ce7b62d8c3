package dev.effectful;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Without the agent, Task is a plain context holder; these hold with or without it. */
class TaskTest {

    @Test
    void nestedScopeKeepsTheSoonerOuterDeadlineAndRestoresOnClose() {
        try (Task outer = Task.open("t-1", "alice", Duration.ofSeconds(2))) {
            try (Task inner = Task.open("t-1-sub", Duration.ofHours(1))) {
                assertThat(Task.current()).containsSame(inner);
                assertThat(inner.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(2));
            }
            assertThat(Task.current()).containsSame(outer);
            try (Task tighter = Task.open("t-2", Duration.ofMillis(100))) {
                assertThat(tighter.remaining()).isLessThanOrEqualTo(Duration.ofMillis(100));
            }
        }
        assertThat(Task.current()).isEmpty();
    }

    @Test
    void wrapCarriesTheTaskAndLeavesNothingBehindOnThePooledThread() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            String[] seen = new String[2];
            try (Task t = Task.open("t-9", Duration.ofSeconds(5))) {
                pool.submit(Task.wrap(() -> seen[0] = Task.current().map(Task::id).orElse("none"))).get();
            }
            pool.submit(() -> seen[1] = Task.current().map(Task::id).orElse("none")).get();
            assertThat(seen).containsExactly("t-9", "none");
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTaskClosedOnAnotherThreadIsGoneFromTheThreadThatOpenedIt() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Task opened = pool.submit(() -> Task.open("t-conv", "alice", Duration.ofSeconds(5))).get();
            assertThat(pool.submit(() -> Task.current().map(Task::id).orElse("none")).get())
                    .as("before the close, the opener still has it (the bug's precondition)").isEqualTo("t-conv");
            opened.close(); // on this thread, not the pooled one that opened it
            assertThat(pool.submit(() -> Task.current().map(Task::id).orElse("none")).get()).isEqualTo("none");
            assertThat(pool.submit(() -> {
                try (Task next = Task.open("t-next", Duration.ofSeconds(5))) {
                    return next.remaining().compareTo(Duration.ofSeconds(4)) > 0; // no closed outer's deadline
                }
            }).get()).isTrue();
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClosedInnerTaskLeavesTheThreadItsOwnOpenOuterTask() throws Exception {
        try (Task outer = Task.open("t-outer", Duration.ofSeconds(5))) {
            Task inner = Task.open("t-inner", Duration.ofSeconds(5));
            Thread closer = new Thread(inner::close);
            closer.start();
            closer.join();
            assertThat(Task.current()).containsSame(outer);
            assertThat(Task.wrap((Runnable) () -> { })).isNotNull();
        }
        assertThat(Task.current()).isEmpty();
    }

    @Test
    void enterAndExitBindAnyTaskAndPutBackWhatWasThere() {
        Task t = Task.open("t-e", Duration.ofSeconds(5));
        Task before = Task.enter(null);
        assertThat(before).isSameAs(t);
        assertThat(Task.current()).isEmpty();
        Task.exit(before);
        assertThat(Task.current()).containsSame(t);
        t.close();
        Task closedBefore = Task.enter(t);
        assertThat(Task.current()).as("a closed task entered is no task").isEmpty();
        Task.exit(closedBefore);
        assertThat(Task.current()).isEmpty();
    }

    @Test
    void wrapWithoutATaskIsTheWorkItself() {
        Runnable r = () -> { };
        assertThat(Task.wrap(r)).isSameAs(r);
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> Task.open(" ", Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Task.open("t", Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
