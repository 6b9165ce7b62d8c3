package dev.effectful.it.coroutines

import dev.effectful.Attempt
import dev.effectful.EffectKind
import dev.effectful.EffectfulTool
import dev.effectful.IntentKey
import dev.effectful.Task
import dev.effectful.agent.e2e.apps.Http

/** A plain blocking Kotlin tool, called from coroutines: it answers with the task it ran in. */
open class SmsTools {

    /** Sends through the loopback ledger (counted under [verb]); answers `<task id or none>`. */
    @EffectfulTool(kind = EffectKind.SEND, name = "send_sms")
    open fun sendSms(@IntentKey phone: String, text: String, verb: String): String {
        val key = Attempt.current().map { it.intentKey() }.orElse("no-attempt")
        Http.effect(verb, key)
        return Task.current().map { it.id() }.orElse("none")
    }
}
