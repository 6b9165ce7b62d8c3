package dev.effectful.agent.reliability;

import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.util.ArrayList;
import java.util.List;

/**
 * One fleet host's run in the fleet campaign (agent attached, {@code store=postgres}): works through the
 * given tasks, each from its first step (a task another host started is repeated here: its done steps
 * answer from the shared store), and prints {@code STEP task verb status key} per step and
 * {@code DONE task} when every step came back ok or held. A refusal while the database is down or frozen
 * ({@code retryable}, nothing applied) is tried again within the task's budget. It may be killed or
 * frozen at any moment.
 *
 * <pre>java -javaagent:effectful-agent.jar -Deffectful.store=postgres ... -Dledger=URL ...FleetWorkload r1-t1,r1-t2</pre>
 */
public final class FleetWorkload {

    /** The secret every host keys {@code charge_token} and {@code send_token} with (never in plaintext in any record). */
    public static final String TOKEN = "tok_live_9QfZ2";

    /** The fleet script's tools beyond the single-host {@link Script}'s: verb, kind, probe. */
    public static final List<Script.Tool> SECRET_TOOLS = List.of(
            new Script.Tool("charge_token", "money", true, false, false),
            new Script.Tool("send_token", "send", false, false, false));

    private FleetWorkload() {
    }

    /** A task's steps: the single-host script's, with the two secret-keyed tools at places that vary per task. */
    public static List<Script.Step> steps(String task) {
        List<Script.Step> steps = new ArrayList<>(Script.steps(task));
        for (Script.Tool t : SECRET_TOOLS) {
            int at = Math.floorMod((task + t.verb()).hashCode(), steps.size() + 1);
            steps.add(at, new Script.Step(task, t, task + "." + t.verb()));
        }
        return steps;
    }

    public static Script.Tool tool(String verb) {
        return SECRET_TOOLS.stream().filter(t -> t.verb().equals(verb)).findFirst().orElseGet(() -> Script.tool(verb));
    }

    public static void main(String[] args) throws Exception {
        CampaignTools tools = new CampaignTools();
        FleetCampaignTools secret = new FleetCampaignTools();
        System.out.println("READY");
        System.out.flush();
        for (String task : args[0].split(",")) {
            try (Task t = Task.open(task, java.time.Duration.ofMinutes(4))) {
                for (Script.Step step : steps(task)) {
                    System.out.println("STEP " + task + " " + step.tool().verb() + " " + call(tools, secret, step, t));
                    System.out.flush();
                }
            }
            System.out.println("DONE " + task);
            System.out.flush();
        }
        System.out.println("ALLDONE");
    }

    /** {@code ok -}, or the final status and the intent key; a retryable answer is tried again while the budget lasts. */
    private static String call(CampaignTools tools, FleetCampaignTools secret, Script.Step step, Task task)
            throws InterruptedException {
        long backoff = 50;
        while (true) {
            Outcome<?> o;
            try {
                Object r = invoke(tools, secret, step);
                if (!(r instanceof Outcome<?> out) || out.status() == Status.OK) {
                    return "ok -";
                }
                o = out;
            } catch (ToolOutcomeException e) {
                o = e.outcome();
            } catch (Exception e) {
                return "error " + e.toString().replace('\n', ' ');
            }
            if (o.status() == Status.RETRYABLE && task.remaining().toSeconds() > 5) {
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, 500);
                continue;
            }
            return o.status().name().toLowerCase(java.util.Locale.ROOT) + " " + o.intentKey();
        }
    }

    private static Object invoke(CampaignTools tools, FleetCampaignTools secret, Script.Step step) throws Exception {
        String ref = step.ref();
        return switch (step.tool().verb()) {
            case "charge_token" -> secret.chargeToken(TOKEN, ref);
            case "send_token" -> secret.sendToken(TOKEN, ref);
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
