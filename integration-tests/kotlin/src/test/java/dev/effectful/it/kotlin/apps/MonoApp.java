package dev.effectful.it.kotlin.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.time.Duration;

/** {@link AsyncScenarios} with Reactor {@code Mono<String>} tools whose work starts after a delay. */
public final class MonoApp {

    /** The tools: {@code Mono.delay} then the send, on Reactor's parallel scheduler. */
    public static class Tools {
        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms", probe = "findSms")
        public Mono<String> sendSms(@IntentKey String phone, String text) {
            return later(phone);
        }

        /** A plain (blocking) probe for an async tool. */
        public String findSms(String phone, String text) throws IOException {
            return AsyncLedger.find(phone);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms_unprobed")
        public Mono<String> sendSmsUnprobed(@IntentKey String phone, String text) {
            return later(phone);
        }

        private static Mono<String> later(String phone) {
            return Mono.delay(Duration.ofMillis(AsyncLedger.delayMs())).flatMap(tick -> {
                try {
                    return Mono.just(AsyncLedger.send(phone));
                } catch (IOException e) {
                    return Mono.error(e);
                }
            });
        }
    }

    private MonoApp() {
    }

    public static void main(String[] args) {
        Tools tools = new Tools();
        AsyncScenarios.run(args[0], new AsyncScenarios.Sms() {
            @Override
            public String send(String phone, String text) {
                return tools.sendSms(phone, text).block();
            }

            @Override
            public String sendUnprobed(String phone, String text) {
                return tools.sendSmsUnprobed(phone, text).block();
            }

            @Override
            public String sendTwiceAtOnce(String phone) {
                Mono<String> a = tools.sendSms(phone, "hello");
                Mono<String> b = tools.sendSms(phone, "hello again");
                return Mono.zip(a, b, (x, y) -> x + "|" + y).block();
            }
        });
    }
}
