@file:JvmName("CoroutineApp")

package dev.effectful.it.coroutines

import dev.effectful.Task
import dev.effectful.kotlin.effectfulTask
import dev.effectful.kotlin.withTask
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import java.time.Duration
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

private val tools = SmsTools()

private fun result(name: String, value: Any) = println("RESULT $name $value")

private fun seen(): String = Task.current().map { it.id() }.orElse("none")

/**
 * `dispatchers`: inside one task, the tool is called from Dispatchers.IO, Default and Unconfined after
 * suspensions, then again rephrased from an `async` and a `launch` child after more suspensions; also
 * with a task opened inside a coroutine by `withTask`, and once without the element (the control).
 * `closed`: a task opened inside `withContext(Dispatchers.IO)` and closed on another thread; then every
 * IO worker, the one that opened it included, calls the tool with no task of its own.
 */
fun main(args: Array<String>) {
    when (args[0]) {
        "dispatchers" -> dispatchers()
        "closed" -> closed()
        else -> error(args[0])
    }
    println("DONE")
}

private fun dispatchers() {
    val dispatchers: List<Pair<String, CoroutineDispatcher>> =
        listOf("io" to Dispatchers.IO, "default" to Dispatchers.Default, "unconfined" to Dispatchers.Unconfined)
    Task.open("t-kt", "alice", Duration.ofSeconds(60)).use {
        runBlocking(effectfulTask()) {
            for ((name, dispatcher) in dispatchers) {
                withContext(dispatcher) {
                    delay(20)
                    val before = Thread.currentThread().name
                    result("${name}_first", tools.sendSms("+1555010$name", "Your code is 4417", "sms_$name"))
                    yield()
                    delay(20)
                    result("${name}_moved", Thread.currentThread().name != before)
                    val rephrased = async(dispatcher) {
                        delay(10)
                        tools.sendSms("+1555010$name", "Your verification code: 4417", "sms_$name")
                    }
                    result("${name}_async", rephrased.await())
                    launch(dispatcher) {
                        delay(10)
                        yield()
                        result("${name}_launch", tools.sendSms("+1555010$name", "Code 4417 is yours", "sms_$name"))
                    }.join()
                }
            }
        }
    }
    // a task opened inside a coroutine: withTask gives it to the block as its element
    runBlocking {
        withContext(Dispatchers.Default) {
            withTask("t-inside", "bob", Duration.ofSeconds(60)) {
                withContext(Dispatchers.IO) {
                    delay(20)
                    result("inside_io", tools.sendSms("+15550199", "Your table is ready", "sms_inside"))
                }
                delay(20)
                result("inside_default", tools.sendSms("+15550199", "Your table is now ready", "sms_inside"))
            }
            result("inside_after", seen())
        }
    }
    // the control: the same call without the element sees no task after a suspension
    Task.open("t-plain", Duration.ofSeconds(60)).use {
        runBlocking {
            withContext(Dispatchers.IO) {
                delay(20)
                result("without_element", tools.sendSms("+15550123", "Hello", "sms_without"))
            }
        }
    }
    result("main_after", seen())
}

private fun closed() {
    val closer = Executors.newSingleThreadExecutor { r -> Thread(r, "closer") }.asCoroutineDispatcher()
    var opener = ""
    runBlocking {
        withContext(Dispatchers.IO) {
            val task = Task.open("conv-io", "carol", Duration.ofSeconds(60)) // binds this IO worker
            opener = Thread.currentThread().name
            result("conv_first", tools.sendSms("+15550150", "Your ride is here", "sms_conv"))
            delay(20)
            withContext(closer) { task.close() } // not on the thread that opened it
        }
    }
    closer.close()
    // every IO worker at once (the opener among them), each with no task of its own
    val threadsSeen = Collections.synchronizedMap(mutableMapOf<String, String>())
    var openerAnswer = ""
    for (round in 0 until 5) {
        val parallel = 80
        val started = CountDownLatch(parallel)
        runBlocking {
            coroutineScope {
                repeat(parallel) {
                    launch(Dispatchers.IO) {
                        started.countDown()
                        started.await(3, TimeUnit.SECONDS) // hold each worker so the next coroutine takes another
                        val name = Thread.currentThread().name
                        threadsSeen[name] = seen()
                        if (name == opener && openerAnswer.isEmpty()) {
                            openerAnswer = tools.sendSms("+15550150", "Your ride is here!", "sms_conv")
                        }
                    }
                }
            }
        }
        if (openerAnswer.isNotEmpty()) break
    }
    result("opener_reached", openerAnswer.isNotEmpty())
    result("opener_later", openerAnswer)
    result("workers_with_a_task", threadsSeen.values.count { it != "none" })
    result("workers_seen", threadsSeen.size)
}
