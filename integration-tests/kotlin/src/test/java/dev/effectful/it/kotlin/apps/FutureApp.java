package dev.effectful.it.kotlin.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/** {@link AsyncScenarios} with {@code CompletableFuture<String>} tools whose work starts after a delay. */
public final class FutureApp {

    /** The tools: the work runs on the common pool after {@link AsyncLedger#delayMs()}. */
    public static class Tools {
        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms", probe = "findSms")
        public CompletableFuture<String> sendSms(@IntentKey String phone, String text) {
            return later(phone);
        }

        /** A probe of the tool's own shape. */
        public CompletableFuture<String> findSms(String phone, String text) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return AsyncLedger.find(phone);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            });
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms_unprobed")
        public CompletableFuture<String> sendSmsUnprobed(@IntentKey String phone, String text) {
            return later(phone);
        }

        static CompletableFuture<String> later(String phone) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return AsyncLedger.send(phone);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, CompletableFuture.delayedExecutor(AsyncLedger.delayMs(), TimeUnit.MILLISECONDS));
        }
    }

    /** A tool declared on an interface: its implementation is woven by Byte Buddy's advice, not the first-load weaver. */
    public interface SmsApi {
        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms_api")
        CompletableFuture<String> sendViaApi(@IntentKey String phone, String text);
    }

    public static class SmsApiClient implements SmsApi {
        @Override
        public CompletableFuture<String> sendViaApi(String phone, String text) {
            return Tools.later(phone);
        }
    }

    private FutureApp() {
    }

    public static void main(String[] args) {
        if (args[0].equals("inherited")) {
            SmsApi api = new SmsApiClient();
            try (dev.effectful.Task t = dev.effectful.Task.open("t-inherited", java.time.Duration.ofSeconds(60))) {
                System.out.println("RESULT first " + api.sendViaApi("+800", "hello").join());
                System.out.println("RESULT second " + api.sendViaApi("+800", "hello again").join());
            }
            return;
        }
        Tools tools = new Tools();
        AsyncScenarios.run(args[0], new AsyncScenarios.Sms() {
            @Override
            public String send(String phone, String text) {
                return tools.sendSms(phone, text).join();
            }

            @Override
            public String sendUnprobed(String phone, String text) {
                return tools.sendSmsUnprobed(phone, text).join();
            }

            @Override
            public String sendTwiceAtOnce(String phone) {
                CompletableFuture<String> a = tools.sendSms(phone, "hello");
                CompletableFuture<String> b = tools.sendSms(phone, "hello again");
                return a.join() + "|" + b.join();
            }
        });
    }
}
