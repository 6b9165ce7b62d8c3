package dev.effectful.agent.reliability;

import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;

/**
 * The campaign's workload JVM (agent attached): works through the given tasks of the {@link Script}
 * like an agent loop that was restarted, each task from its first step, and prints
 * {@code DONE task} when a task's every step came back ok or held. It may be killed at any moment.
 *
 * <pre>java -javaagent:effectful-agent.jar=journal=DIR -Dledger=URL -cp test-classes ...Workload r1-t1,r1-t2</pre>
 */
public final class Workload {

    private Workload() {
    }

    public static void main(String[] args) throws Exception {
        // the engine opens and replays the journal when the tool class is first loaded: READY after
        // that, so the runner's kill clock starts when the real work does
        CampaignTools tools = new CampaignTools();
        System.out.println("READY");
        System.out.flush();
        for (String task : args[0].split(",")) {
            try (Task t = Task.open(task, Duration.ofMinutes(5))) {
                for (Script.Step step : Script.steps(task)) {
                    System.out.println("STEP " + task + " " + step.tool().verb() + " " + call(tools, step));
                }
            }
            System.out.println("DONE " + task);
        }
        System.out.println("ALLDONE");
    }

    /** Calls a step until it is ok or held; a retryable answer (none is expected here) is tried again. */
    private static String call(CampaignTools tools, Script.Step step) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                Object r = invoke(tools, step);
                if (r instanceof Outcome<?> o && o.status() != Status.OK) {
                    if (o.status() == Status.RETRYABLE && attempt < 50) {
                        Thread.sleep(100);
                        continue;
                    }
                    return o.status().name().toLowerCase() + " " + o.toJson();
                }
                return "ok";
            } catch (ToolOutcomeException e) {
                Status s = e.outcome().status();
                if (s == Status.RETRYABLE && attempt < 50) {
                    Thread.sleep(100);
                    continue;
                }
                return s.name().toLowerCase() + " " + e.getMessage();
            } catch (Exception e) {
                return "error " + e;
            }
        }
    }

    private static Object invoke(CampaignTools tools, Script.Step step) throws Exception {
        String ref = step.ref();
        return switch (step.tool().verb()) {
            case "get_price" -> tools.getPrice(ref);
            case "set_address" -> tools.setAddress(ref);
            case "create_ticket" -> tools.createTicket(ref);
            case "create_note" -> tools.createNote(ref);
            case "create_order" -> tools.createOrder(ref);
            case "send_email" -> tools.sendEmail(ref);
            case "send_sms" -> tools.sendSms(ref);
            case "charge_card" -> tools.chargeCard(ref);
            case "refund" -> tools.refund(ref);
            case "archive_record" -> tools.archiveRecord(ref);
            case "delete_record" -> tools.deleteRecord(ref);
            case "write_rows" -> tools.writeRows(ref, Script.ROWS.stream().map(CampaignTools.Row::new).toList());
            default -> throw new IllegalArgumentException(step.tool().verb());
        };
    }

}
