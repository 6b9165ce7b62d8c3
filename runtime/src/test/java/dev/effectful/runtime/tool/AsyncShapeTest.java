package dev.effectful.runtime.tool;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The weaver chooses a tool's path from its descriptor alone: these are the descriptors it must tell
 * apart, and the value type a repeat is read back as.
 */
class AsyncShapeTest {

    @Test
    void theDescriptorTellsTheShape() {
        assertThat(AsyncShape.ofDescriptor("(Ljava/lang/String;Ljava/lang/String;Lkotlin/coroutines/Continuation;)Ljava/lang/Object;"))
                .isEqualTo(AsyncShape.SUSPEND);
        assertThat(AsyncShape.ofDescriptor("(Ljava/lang/String;)Ljava/util/concurrent/CompletableFuture;"))
                .isEqualTo(AsyncShape.COMPLETABLE_FUTURE);
        assertThat(AsyncShape.ofDescriptor("()Ljava/util/concurrent/CompletionStage;")).isEqualTo(AsyncShape.COMPLETION_STAGE);
        assertThat(AsyncShape.ofDescriptor("(J)Lreactor/core/publisher/Mono;")).isEqualTo(AsyncShape.MONO);
        assertThat(AsyncShape.ofDescriptor("(J)Lreactor/core/publisher/Flux;")).isEqualTo(AsyncShape.FLUX);
        assertThat(AsyncShape.ofDescriptor("()Lkotlinx/coroutines/flow/Flow;")).isEqualTo(AsyncShape.KOTLIN_FLOW);
        assertThat(AsyncShape.ofDescriptor("()Ljava/util/concurrent/Future;")).isEqualTo(AsyncShape.FUTURE);
        // blocking tools: nothing to follow, the synchronous path
        assertThat(AsyncShape.ofDescriptor("(Ljava/lang/String;)Ljava/lang/String;")).isNull();
        assertThat(AsyncShape.ofDescriptor("(Lkotlin/coroutines/Continuation;)V")).isNull();
        assertThat(AsyncShape.ofDescriptor("()I")).isNull();
        assertThat(AsyncShape.ofDescriptor("()[Ljava/lang/String;")).isNull();
    }

    @Test
    void onlyTheFollowedShapesAreGuardedTheRestRefused() {
        assertThat(AsyncShape.values()).filteredOn(s -> !s.refused()).containsExactly(AsyncShape.SUSPEND,
                AsyncShape.COMPLETABLE_FUTURE, AsyncShape.COMPLETION_STAGE, AsyncShape.MONO);
        assertThat(AsyncShape.FLUX.refusal("a.B.send")).contains("a.B.send", "Reactor Flux", "Mono<T>");
    }

    static class Tools {
        CompletableFuture<String> future(String phone) {
            return null;
        }

        CompletionStage<? extends Integer> stage() {
            return null;
        }

        Future<String> plain() {
            return null;
        }
    }

    @Test
    void theStoredValueIsTheTypeArgumentNotThePromise() throws Exception {
        Method future = Tools.class.getDeclaredMethod("future", String.class);
        assertThat(AsyncShape.of(future).valueType(future)).isEqualTo(String.class);
        assertThat(ProbeForms.valueClass(future)).isEqualTo(String.class);
        Method stage = Tools.class.getDeclaredMethod("stage");
        assertThat(AsyncShape.of(stage).valueType(stage)).isEqualTo(Integer.class);
        Method plain = Tools.class.getDeclaredMethod("plain");
        assertThat(ProbeForms.valueClass(plain)).as("a refused shape keeps its declared type").isEqualTo(Future.class);
    }
}
