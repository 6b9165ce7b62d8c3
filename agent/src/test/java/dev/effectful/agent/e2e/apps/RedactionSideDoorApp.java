package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;

/**
 * Calls each {@link RedactionSideDoorTools} tool with its own secret (system properties named after
 * the tool) and prints what the caller got, without ever printing a secret itself; every thrown
 * outcome's whole stack trace (causes and suppressed exceptions) goes to stderr, as an application
 * logging its failures would.
 */
public final class RedactionSideDoorApp {

    private RedactionSideDoorApp() {
    }

    public static void main(String[] args) throws Exception {
        RedactionSideDoorTools tools = new RedactionSideDoorTools();
        try (Task t = Task.open("t-doors", Duration.ofSeconds(60))) {
            call("upload", () -> tools.upload("u-1", secret("upload")));
            call("verify", () -> tools.verify("v-1", secret("verify")));
            call("relay", () -> tools.relay("r-1", secret("relay")));
            call("sign_in", () -> tools.signIn("s-1", new RedactionSideDoorTools.Creds("ann", secret("sign_in"))));
            call("connect", () -> tools.connect("c-1", new RedactionSideDoorTools.ApiKey(secret("connect"))));
            call("sign", () -> tools.sign("g-1", bytes("sign")));
            call("stream", () -> tools.stream("b-1", ByteBuffer.wrap(bytes("stream"))));
            call("unlock", () -> tools.unlock("p-1", secret("unlock").toCharArray()));
            byte[] seed = bytes("derive");
            call("derive_first", () -> Arrays.equals(tools.derive("d-1", seed), seed) ? "untouched" : "changed");
            call("derive_repeat", () -> Arrays.equals(tools.derive("d-1", seed), seed) ? "HANDED BACK" : "other bytes");
            System.out.println("RESULT derive_bodies " + RedactionSideDoorTools.DERIVE_BODIES.get());
            call("seal", () -> tools.seal("e-1", secret("seal")).length);
            call("seal_repeat", () -> tools.seal("e-1", secret("seal")).length);
            String document = "x".repeat(190) + secret("archive") + "y".repeat(70_000);
            call("archive", () -> tools.archive("a-1", secret("archive"), document));
            call("notify", () -> tools.notify("n-1", secret("notify")));
        }
        System.out.println("DONE");
    }

    private static String secret(String tool) {
        return System.getProperty("secret." + tool);
    }

    private static byte[] bytes(String tool) {
        return secret(tool).getBytes(StandardCharsets.UTF_8);
    }

    private static void call(String name, Callable<?> call) {
        String value;
        try {
            value = String.valueOf(call.call());
        } catch (ToolOutcomeException e) {
            e.printStackTrace();
            value = "THROWN " + e.getMessage();
        } catch (Throwable e) {
            e.printStackTrace();
            value = "RAW " + e.getClass().getName();
        }
        System.out.println("RESULT " + name + " " + value);
    }
}
