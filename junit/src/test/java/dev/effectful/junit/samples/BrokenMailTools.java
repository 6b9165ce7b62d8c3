package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
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
}
