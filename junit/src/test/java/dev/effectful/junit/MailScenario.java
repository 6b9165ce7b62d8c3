package dev.effectful.junit;

import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.util.function.Function;

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

    /** Every check of the kit on {@code type}, built by {@code make} over the service's address. */
    static <T> Report mail(EffectfulKit kit, Class<T> type, Function<URI, T> make, Receivers.Mailbox box) {
        FakeHttpService svc = kit.httpService(box).errorAnswer(ERROR_200);
        return kit.tool(type, () -> make.apply(svc.uri()))
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
    static <T> Verdict failsOnly(EffectfulKit kit, Class<T> type, Function<URI, T> make, Check check) {
        Report report = mail(kit, type, make, new Receivers.Mailbox());
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
