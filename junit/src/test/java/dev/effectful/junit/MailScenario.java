package dev.effectful.junit;

import java.lang.reflect.InvocationTargetException;
import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run the mail tests share: a mail tool (right or broken) against the kit's loopback mailbox, which
 * answers a 200 whose body says error when asked to; the call sends for order 7741 and the rephrased
 * retry says the same in other words.
 */
final class MailScenario {

    static final String ERROR_200 = "{\"status\":\"failed\",\"error\":\"mailbox full\"}";

    private MailScenario() {
    }

    /**
     * Every check of the kit on the mail tool {@code type}, made by its public constructor over the service's
     * address (as every sample mail tool is), against a mailbox of its own.
     */
    static <T> Report mail(EffectfulKit kit, Class<T> type) {
        Receivers.Mailbox box = new Receivers.Mailbox();
        FakeHttpService svc = kit.httpService(box).errorAnswer(ERROR_200);
        return kit.tool(type, () -> overAddress(type, svc.uri()))
                .call(t -> send(t, "Your order 7741 has shipped."))
                .rephrased(t -> send(t, "Good news: order 7741 is on its way!"))
                .effects(box::count)
                .faultsAt(svc)
                .run();
    }

    /**
     * The mail run of {@code type}, which must fail {@code check} and nothing else: that check's verdict, for
     * what a test asserts of it beside.
     */
    static Verdict failsOnly(EffectfulKit kit, Class<?> type, Check check) {
        Report report = mail(kit, type);
        failedOnly(report, check);
        return failed(report, check);
    }

    /** The verdict of {@code check}, which must be there and have failed. */
    static Verdict failed(Report report, Check check) {
        Verdict v = report.verdict(check).orElseThrow();
        assertThat(v.failed()).as(check + " failed").isTrue();
        return v;
    }

    /** The report's failures are {@code check}'s alone. */
    static void failedOnly(Report report, Check check) {
        assertThat(report.failures()).extracting(Verdict::check).containsExactly(check);
    }

    private static <T> T overAddress(Class<T> type, URI base) {
        try {
            return type.getConstructor(URI.class).newInstance(base);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(type.getName() + " is not made by a public constructor over the service's address", e);
        }
    }

    /** The tool's {@code sendEmail("order-7741", text)}, whichever class declares it, throwing what it throws. */
    private static Object send(Object tool, String text) throws Exception {
        try {
            return tool.getClass().getMethod("sendEmail", String.class, String.class).invoke(tool, "order-7741", text);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (Exception) e.getCause();
        }
    }
}
