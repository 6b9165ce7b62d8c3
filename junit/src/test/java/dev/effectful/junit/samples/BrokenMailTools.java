package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;

/**
 * Each nested class gets exactly one thing wrong, the way users do. What they do right is {@link MailTool}'s
 * (the request, the probe by order, the check), named or left out in each annotation.
 */
public final class BrokenMailTools {

    private BrokenMailTools() {
    }

    /** No probe on a SEND: after a crash nothing can tell whether the mail went. */
    public static class NoProbe extends MailTool {
        public NoProbe(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            return send(orderId, text);
        }
    }

    /** A probe that never finds: it looks in the wrong place. */
    public static class BlindProbe extends MailTool {
        public BlindProbe(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            return send(orderId, text);
        }

        @Override
        public String findEmail(String orderId, String text) throws IOException, InterruptedException {
            return emailFor(text);
        }
    }

    /** The key built from the message text: every rephrased retry is a new intent. */
    public static class TextKeyed extends MailTool {
        public TextKeyed(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(String orderId, @IntentKey String text) throws IOException, InterruptedException {
            return send(orderId, text);
        }
    }

    /** No check: a 200 whose body says error counts as sent. */
    public static class Unchecked extends MailTool {
        public Unchecked(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            return send(orderId, text);
        }
    }

    /** Ignores Retry-After: on a 429 it tries again at once, hammering the receiver. */
    public static class IgnoresRetryAfter extends MailTool {
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
            refuseErrors(answer, "the shop failed");
        }
    }

    /**
     * Denies an effect that landed: a lost answer (an IOException after the mail went) is wrapped in an
     * unchecked exception the tool declares retryable, so the outcome says effect no.
     */
    public static class DeniesLostAnswer extends MailTool {
        public DeniesLostAnswer(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent",
                retryableOn = UncheckedIOException.class)
        public String sendEmail(@IntentKey String orderId, String text) throws InterruptedException {
            try {
                return send(orderId, text);
            } catch (IOException e) {
                throw new UncheckedIOException("the mail service did not answer; try again", e);
            }
        }
    }

    /**
     * Outlives its deadline: after sending it polls for the delivery receipt, and an interrupt (the
     * engine's deadline) is caught and the polling goes on.
     */
    public static class SwallowsInterrupt extends MailTool {
        public SwallowsInterrupt(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail", check = "checkSent")
        public String sendEmail(@IntentKey String orderId, String text) throws IOException, InterruptedException {
            String sent = send(orderId, text);
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
    }
}
