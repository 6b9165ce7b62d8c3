package dev.effectful.kotlin

import dev.effectful.Task
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Duration
import java.util.concurrent.Executors

/** Without the agent too, the element carries the task through dispatchers and suspensions and cleans up. */
class TaskElementTest {

    private fun seen(): String = Task.current().map { it.id() }.orElse("none")

    @Test
    fun theTaskFollowsTheCoroutineAcrossDispatchersAndSuspensions() {
        val seen = mutableListOf<String>()
        Task.open("t-kt", Duration.ofSeconds(30)).use {
            runBlocking(effectfulTask()) {
                for (dispatcher in listOf(Dispatchers.IO, Dispatchers.Default, Dispatchers.Unconfined)) {
                    withContext(dispatcher) {
                        delay(5)
                        yield()
                        seen += seen()
                        seen += async { delay(5); seen() }.await()
                        launch { delay(5); synchronized(seen) { seen += seen() } }.join()
                    }
                }
            }
        }
        assertThat(seen).hasSize(9).containsOnly("t-kt")
        assertThat(Task.current()).isEmpty()
    }

    @Test
    fun aSuspendedCoroutineLeavesItsThreadAsItFoundIt() {
        val single = Executors.newSingleThreadExecutor()
        val dispatcher = single.asCoroutineDispatcher()
        try {
            val task = Task.open("t-held", Duration.ofSeconds(30))
            Task.enter(null) // held, not bound here
            runBlocking {
                val job = launch(dispatcher + task.asContextElement()) {
                    seen() // runs on the single thread, then suspends
                    delay(200)
                }
                // while it is suspended, the same thread runs other work with no task
                val between = withContext(dispatcher) { seen() }
                assertThat(between).isEqualTo("none")
                job.join()
            }
            task.close()
        } finally {
            single.shutdownNow()
        }
    }

    @Test
    fun withTaskCarriesItsTaskAcrossThreadsAndEndsItEverywhere() {
        val seen = mutableListOf<String>()
        val single = Executors.newSingleThreadExecutor()
        val worker = single.asCoroutineDispatcher()
        try {
            runBlocking {
                withContext(worker) {
                    withTask("t-inside", Duration.ofSeconds(30)) {
                        seen += seen()
                        withContext(Dispatchers.IO) {
                            delay(5)
                            seen += seen()
                        }
                        seen += seen()
                    }
                    seen += seen()
                }
                seen += withContext(worker) { seen() }
            }
        } finally {
            single.shutdownNow()
        }
        assertThat(seen).containsExactly("t-inside", "t-inside", "t-inside", "none", "none")
    }

    @Test
    fun aBareTaskOpenedAndClosedAcrossThreadsInsideACoroutineLeavesNoThreadBound() {
        val single = Executors.newSingleThreadExecutor()
        val worker = single.asCoroutineDispatcher()
        try {
            runBlocking {
                withContext(worker) {
                    val task = Task.open("t-bare", Duration.ofSeconds(30)) // binds the worker thread only
                    withContext(Dispatchers.IO) { delay(5) }
                    withContext(Dispatchers.IO) { task.close() } // on an IO thread
                }
                assertThat(withContext(worker) { seen() }).isEqualTo("none")
            }
        } finally {
            single.shutdownNow()
        }
    }
}
