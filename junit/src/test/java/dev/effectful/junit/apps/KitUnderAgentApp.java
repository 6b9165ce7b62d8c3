package dev.effectful.junit.apps;

import dev.effectful.junit.Check;
import dev.effectful.junit.EffectfulKit;
import dev.effectful.junit.FakeHttpService;
import dev.effectful.junit.Report;
import dev.effectful.junit.samples.MailTools;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test JVM's life as the README's Install section makes it: started with {@code -javaagent}, running a
 * kit test of a tool the agent weaves. Prints whether the agent wove the tool (its body moved to
 * {@code effectful$body$...}), the kit's verdicts, and whether the thread was left interrupted.
 */
public final class KitUnderAgentApp {

    private KitUnderAgentApp() {
    }

    public static void main(String[] args) throws Exception {
        EffectfulKit kit = new EffectfulKit();
        Report report;
        try {
            List<String> sent = new CopyOnWriteArrayList<>();
            Map<String, String> byOrder = new ConcurrentHashMap<>();
            FakeHttpService mail = kit.httpService(req -> {
                String order = req.query("order").orElse("");
                if (req.method().equals("POST")) {
                    sent.add(req.body());
                    String answer = "{\"id\":\"m-" + sent.size() + "\",\"status\":\"sent\"}";
                    byOrder.put(order, answer);
                    return FakeHttpService.Response.ok(answer);
                }
                String found = byOrder.get(order);
                return found == null ? FakeHttpService.Response.status(404) : FakeHttpService.Response.ok(found);
            }).errorAnswer("{\"status\":\"failed\",\"error\":\"mailbox full\"}");
            report = kit.tool(MailTools.class, () -> new MailTools(mail.uri()))
                    .call(t -> t.sendEmail("order-7741", "Your order 7741 has shipped."))
                    .rephrased(t -> t.sendEmail("order-7741", "Good news: order 7741 is on its way!"))
                    .effects(sent::size)
                    .faultsAt(mail)
                    .run();
        } finally {
            kit.close();
        }
        boolean woven = java.util.Arrays.stream(MailTools.class.getDeclaredMethods())
                .anyMatch(m -> m.getName().startsWith("effectful$body$"));
        System.out.println(report);
        System.out.println("RESULT woven " + woven);
        System.out.println("RESULT kill " + report.verdict(Check.KILL_MID_CALL).orElseThrow().result());
        System.out.println("RESULT passed " + report.passed());
        System.out.println("RESULT interrupted " + Thread.interrupted());
        System.out.flush();
    }
}
