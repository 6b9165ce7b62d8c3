package dev.effectful.it.kotlin.apps

import dev.effectful.EffectKind
import dev.effectful.EffectfulTool
import dev.effectful.IntentKey
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

/** Kotlin `suspend` SEND tools: a `delay()` first, then the SMS; the probe is a `suspend fun` too. */
class SmsTools {

    @EffectfulTool(kind = EffectKind.SEND, name = "send_sms", probe = "findSms")
    suspend fun sendSms(@IntentKey phone: String, text: String): String {
        delay(AsyncLedger.delayMs())
        return send(phone)
    }

    /** Found by its Kotlin parameter list: the JVM method has a trailing Continuation the tool's name does not. */
    suspend fun findSms(phone: String, text: String): String? {
        delay(1)
        return AsyncLedger.find(phone)
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_sms_unprobed")
    suspend fun sendSmsUnprobed(@IntentKey phone: String, text: String): String {
        delay(AsyncLedger.delayMs())
        return send(phone)
    }

    // blocking I/O off the caller's event loop, as a Kotlin client would do it
    private suspend fun send(phone: String): String = withContext(Dispatchers.IO) { AsyncLedger.send(phone) }
}

/** [AsyncScenarios] with the suspend tools, each call inside `runBlocking` on the thread that opened the task. */
object SuspendApp {
    @JvmStatic
    fun main(args: Array<String>) {
        val tools = SmsTools()
        AsyncScenarios.run(args[0], object : AsyncScenarios.Sms {
            override fun send(phone: String, text: String): String = runBlocking { tools.sendSms(phone, text) }
            override fun sendUnprobed(phone: String, text: String): String =
                runBlocking { tools.sendSmsUnprobed(phone, text) }

            // both coroutines on runBlocking's thread: the second call finds the first in flight
            override fun sendTwiceAtOnce(phone: String): String = runBlocking {
                val a = async { tools.sendSms(phone, "hello") }
                val b = async { tools.sendSms(phone, "hello again") }
                a.await() + "|" + b.await()
            }
        })
    }
}
