package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;

/** Each nested class gets exactly one thing wrong, the way users do. */
public final class BrokenMailTools {

    private BrokenMailTools() {
    }

    /** No probe on a SEND: after a crash nothing can tell whether the mail went. */
    public static class NoProbe extends HttpTool {
        public NoProbe(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            return bodyOf(post("emails?order=" + q(orderId), text));
        }

        void checkSent(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the mail service refused: " + answer);
            }
        }
    }

    /** A probe that never finds: it looks in the wrong place. */
    public static class BlindProbe extends HttpTool {
        public BlindProbe(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            return bodyOf(post("emails?order=" + q(orderId), text));
        }

        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = get("emails?order=" + q(text));
            return r.statusCode() == 200 ? r.body() : null;
        }

        void checkSent(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the mail service refused: " + answer);
            }
        }
    }

    /** The key built from the message text: every rephrased retry is a new intent. */
    public static class TextKeyed extends HttpTool {
        public TextKeyed(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(String orderId, @IntentKey String text) throws IOException, InterruptedException {
            return bodyOf(post("emails?order=" + q(orderId), text));
        }

        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = get("emails?order=" + q(orderId));
            return r.statusCode() == 200 ? r.body() : null;
        }

        void checkSent(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the mail service refused: " + answer);
            }
        }
    }

    /** No check: a 200 whose body says error counts as sent. */
    public static class Unchecked extends HttpTool {
        public Unchecked(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            return bodyOf(post("emails?order=" + q(orderId), text));
        }

        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = get("emails?order=" + q(orderId));
            return r.statusCode() == 200 ? r.body() : null;
        }
    }

    /** Ignores Retry-After: on a 429 it tries again at once, hammering the receiver. */
    public static class IgnoresRetryAfter extends HttpTool {
        public IgnoresRetryAfter(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = post("emails?order=" + q(orderId), text);
            for (int i = 0; i < 3 && r.statusCode() == 429; i++) {
                r = post("emails?order=" + q(orderId), text);
            }
            return bodyOf(r);
        }

        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = get("emails?order=" + q(orderId));
            return r.statusCode() == 200 ? r.body() : null;
        }

        void checkSent(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the mail service refused: " + answer);
            }
        }
    }

    /** A READ that emails the customer on every call: "we saw you checked your order". */
    public static class ReadThatSends extends HttpTool {
        public ReadThatSends(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.READ, name = "order_status", check = "checkStatus")
        public String orderStatus(@IntentKey String orderId) throws IOException, InterruptedException {
            String status = bodyOf(get("status?order=" + q(orderId)));
            post("emails?order=" + q(orderId), "You checked your order: " + status);
            return status;
        }

        void checkStatus(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the shop failed: " + answer);
            }
        }
    }

    /**
     * Denies an effect that landed: a lost answer (an IOException after the mail went) is wrapped in an
     * unchecked exception the tool declares retryable, so the outcome says effect no.
     */
    public static class DeniesLostAnswer extends HttpTool {
        public DeniesLostAnswer(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent",
                retryableOn = UncheckedIOException.class)
        public String sendEmail(@IntentKey String orderId, String text) throws InterruptedException {
            try {
                return bodyOf(post("emails?order=" + q(orderId), text));
            } catch (IOException e) {
                throw new UncheckedIOException("the mail service did not answer; try again", e);
            }
        }

        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = get("emails?order=" + q(orderId));
            return r.statusCode() == 200 ? r.body() : null;
        }

        void checkSent(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the mail service refused: " + answer);
            }
        }
    }

    /**
     * Outlives its deadline: after sending it polls for the delivery receipt, and an interrupt (the
     * engine's deadline) is caught and the polling goes on.
     */
    public static class SwallowsInterrupt extends HttpTool {
        public SwallowsInterrupt(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            String sent = bodyOf(post("emails?order=" + q(orderId), text));
            long giveUp = System.nanoTime() + 2_500_000_000L;
            while (System.nanoTime() < giveUp) {
                try {
                    if (get("receipts?order=" + q(orderId)).statusCode() == 200) {
                        return sent;
                    }
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    // "not now": keep waiting for the receipt
                }
            }
            return sent;
        }

        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            HttpResponse<String> r = get("emails?order=" + q(orderId));
            return r.statusCode() == 200 ? r.body() : null;
        }

        void checkSent(String answer) {
            if (answer.contains("\"error\"")) {
                throw new IllegalArgumentException("the mail service refused: " + answer);
            }
        }
    }
}
