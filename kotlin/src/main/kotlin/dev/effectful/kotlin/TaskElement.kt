@file:JvmName("EffectfulCoroutines")

package dev.effectful.kotlin

import dev.effectful.Task
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.ThreadContextElement
import kotlinx.coroutines.withContext
import java.time.Duration
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext

/**
 * The Effectful task as a coroutine context element: while the coroutine runs, on whichever thread a
 * dispatcher resumes it, its task is the current [Task]; each time it suspends, the thread gets back
 * exactly what it had, so a pooled dispatcher thread never keeps a coroutine's task for the next one.
 * Child coroutines (`launch`, `async`, `withContext`) inherit the element with the context.
 *
 * ```
 * runBlocking(effectfulTask()) { ... }                          // the caller's current task
 * withContext(Dispatchers.IO + task.asContextElement()) { ... } // a task you hold
 * withTask("order-7741", "alice", Duration.ofMinutes(2)) { ... } // a task opened inside a coroutine
 * ```
 *
 * The element is immutable: the task a coroutine runs in is the one it was given. A bare `Task.open`
 * inside a coroutine binds only the thread it ran on, which the element puts back at the next
 * suspension; open a task inside a coroutine with [withTask], which gives it to the block as an element.
 * A closed task is no task on any thread (see [Task.close]): a coroutine whose task was closed runs on
 * with none.
 */
class TaskElement private constructor(private val task: Task?) :
    AbstractCoroutineContextElement(TaskElement), ThreadContextElement<Task?> {

    /** The key of the element in a coroutine context. */
    companion object Key : CoroutineContext.Key<TaskElement> {
        /** An element that makes [task] (null: none) the coroutine's task. */
        @JvmStatic
        fun of(task: Task?): TaskElement = TaskElement(task)
    }

    /** The task this element binds; null when it binds none. */
    fun task(): Task? = task

    override fun updateThreadContext(context: CoroutineContext): Task? = Task.enter(task)

    override fun restoreThreadContext(context: CoroutineContext, oldState: Task?) = Task.exit(oldState)

    override fun toString(): String = "TaskElement(${task?.id() ?: "none"})"
}

/** This task as a coroutine context element: `withContext(Dispatchers.IO + task.asContextElement())`. */
fun Task.asContextElement(): TaskElement = TaskElement.of(this)

/**
 * The calling thread's current task as a coroutine context element (an element that binds none when
 * there is none): `runBlocking(effectfulTask()) { ... }`, `scope.launch(effectfulTask()) { ... }`.
 */
fun effectfulTask(): TaskElement = TaskElement.of(Task.current().orElse(null))

/**
 * Opens a task for [block], which runs with it as its element on whatever threads it suspends and
 * resumes on, and closes it when the block ends, however it ends. Nested in the coroutine's own task,
 * the sooner deadline wins (as for [Task.open]).
 */
suspend fun <T> withTask(taskId: String, actor: String?, budget: Duration, block: suspend CoroutineScope.() -> T): T {
    val outer = Task.current().orElse(null)
    val task = Task.open(taskId, actor, budget)
    // the opening thread goes back to what it had: only the block's coroutine carries the task
    Task.enter(outer)
    try {
        return withContext(task.asContextElement(), block)
    } finally {
        task.close()
    }
}

/** [withTask] without an actor. */
suspend fun <T> withTask(taskId: String, budget: Duration, block: suspend CoroutineScope.() -> T): T =
    withTask(taskId, null, budget, block)
