package dev.effectful.it.kotlin.apps

import dev.effectful.EffectKind
import dev.effectful.EffectfulTool
import dev.effectful.IntentKey
import dev.effectful.Task
import dev.effectful.ToolOutcomeException
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import reactor.core.publisher.Flux
import java.time.Duration
import java.util.concurrent.Executors
import java.util.concurrent.Future
import java.util.concurrent.atomic.AtomicInteger

/** Promise shapes the agent cannot follow: each effectful one must be refused without its body running. */
class RefusedTools {
    val bodies = AtomicInteger()

    @EffectfulTool(kind = EffectKind.SEND, name = "send_flux")
    fun sendFlux(@IntentKey phone: String): Flux<String> {
        bodies.incrementAndGet()
        return Flux.just("sent:$phone")
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_flow")
    fun sendFlow(@IntentKey phone: String): Flow<String> {
        bodies.incrementAndGet()
        return flow { emit("sent:$phone") }
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_future")
    fun sendFuture(@IntentKey phone: String): Future<String> {
        bodies.incrementAndGet()
        return POOL.submit<String> { "sent:$phone" }
    }

    /** A READ tool of a refused shape runs. */
    @EffectfulTool(kind = EffectKind.READ, name = "read_flux")
    fun readFlux(@IntentKey phone: String): Flux<String> = Flux.just("read:$phone")

    companion object {
        val POOL = Executors.newSingleThreadExecutor { r -> Thread(r).apply { isDaemon = true } }
    }
}

object RefusedShapesApp {
    @JvmStatic
    fun main(args: Array<String>) {
        val tools = RefusedTools()
        Task.open("t-refused", Duration.ofSeconds(60)).use {
            print("flux") { tools.sendFlux("+1").collectList().block().toString() }
            print("flow") { runBlocking { tools.sendFlow("+1").toList().toString() } }
            print("future") { tools.sendFuture("+1").get() }
            print("read_flux") { tools.readFlux("+1").collectList().block().toString() }
        }
        println("RESULT bodies ${tools.bodies.get()}")
        println("DONE")
    }

    private fun print(name: String, call: () -> String) {
        val value = try {
            call()
        } catch (e: ToolOutcomeException) {
            "THROWN " + e.message
        } catch (e: Throwable) {
            "RAW $e"
        }
        println("RESULT $name $value")
    }
}
