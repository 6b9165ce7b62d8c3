package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A MONEY tool with {@code keyHeader = "Idempotency-Key"} and no probe, for KeySentIT, against a payment
 * service that deduplicates on that header. Args: SCENARIO CLIENT, CLIENT {@code jdk} (the JDK
 * {@code HttpClient}, covered) or {@code raw} (HTTP written by hand on a socket: no client the agent covers).
 * <ul>
 *   <li>{@code lost}: the first charge's answer is lost (timeout), then the model's rephrased retry</li>
 *   <li>{@code hang}: one charge whose answer never comes; the test kills the process meanwhile</li>
 *   <li>{@code resume}: the same charge again, in a new process after that kill</li>
 * </ul>
 * System property {@code tool}: {@code charge_card} (MONEY, the default) or {@code create_order} (CREATE) for
 * {@code hang} and {@code resume}. Prints {@code RESULT name value} lines.
 */
public final class KeySentApp {

    private KeySentApp() {
    }

    /** The tool: one POST of the charge, through the given client. */
    public static class Payments {
        private final String base;
        private final boolean covered;
        private final HttpClient client = HttpClient.newHttpClient();

        Payments(String base, boolean covered) {
            this.base = base;
            this.covered = covered;
        }

        @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", keyHeader = "Idempotency-Key")
        public String chargeCard(@IntentKey String order, String note, boolean loseAnswer, long waitMillis)
                throws IOException, InterruptedException {
            String url = base + "/charge/" + order + (loseAnswer ? "?lose=1" : "");
            if (!covered) {
                return KeyHeaderApp.rawSocket(url, null);
            }
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(waitMillis))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"note\":\"" + note + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("HTTP " + r.statusCode());
            }
            return r.body();
        }

        /** A CREATE with the same key header: before key_sent, its header alone let a crashed attempt re-run. */
        @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", keyHeader = "Idempotency-Key")
        public String createOrder(@IntentKey String order, String note, boolean loseAnswer, long waitMillis)
                throws IOException, InterruptedException {
            return chargeCard(order, note, loseAnswer, waitMillis);
        }

        String call(String tool, String order, String note, boolean loseAnswer, long waitMillis)
                throws IOException, InterruptedException {
            return "create_order".equals(tool) ? createOrder(order, note, loseAnswer, waitMillis)
                    : chargeCard(order, note, loseAnswer, waitMillis);
        }
    }

    public static void main(String[] args) throws Exception {
        String scenario = args[0];
        Payments payments = new Payments(System.getProperty("ledger"), "jdk".equals(args[1]));
        String order = System.getProperty("order");
        String tool = System.getProperty("tool", "charge_card");
        try (Task task = Task.open("pay-" + order, Duration.ofMinutes(2))) {
            switch (scenario) {
                case "lost" -> {
                    report("first", () -> payments.chargeCard(order, "charge 12 EUR for order " + order, true,
                            2_000));
                    report("retry", () -> payments.chargeCard(order, "retry: the 12 EUR charge for " + order, false,
                            10_000));
                }
                case "hang" -> {
                    System.out.println("CHARGING");
                    System.out.flush();
                    report("first", () -> payments.call(tool, order, "charge 12 EUR", true, 60_000));
                }
                case "resume" -> report("resume", () -> payments.call(tool, order, "the charge again, after a restart",
                        false, 10_000));
                default -> throw new IllegalArgumentException(scenario);
            }
        }
        System.out.flush();
    }

    private interface Charge {
        String run() throws Exception;
    }

    private static void report(String name, Charge charge) throws Exception {
        try {
            System.out.println("RESULT " + name + " ok " + charge.run());
        } catch (ToolOutcomeException e) {
            System.out.println("RESULT " + name + " " + e.getMessage());
        }
        System.out.flush();
    }
}
