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

    /**
     * The combined campaign's tools ({@link MixedTools}), in the mixed mode ({@code -Dfleet.mixed=true}): a
     * {@code CompletableFuture} CREATE with a probe, a Kotlin suspend SEND without, a MONEY needing approval with
     * a probe, a MONEY whose key travels in {@code Idempotency-Key} (no probe: another host holds it).
     */
    public static final List<Script.Tool> MIXED_TOOLS = List.of(
            new Script.Tool("book_async", "create", true, false, false),
            new Script.Tool("push_suspend", "send", false, false, false),
            new Script.Tool("transfer", "money", true, false, false),
            new Script.Tool("pay_keyed", "money", false, false, false));

    private FleetWorkload() {
    }

    /** A task's steps: the single-host script's, with the two secret-keyed tools at places that vary per task. */
    public static List<Script.Step> steps(String task) {
        return steps(task, false);
    }

    /** A task's steps; {@code mixed}: with {@link #MIXED_TOOLS} too, also at places that vary per task. */
    public static List<Script.Step> steps(String task, boolean mixed) {
        List<Script.Step> steps = new ArrayList<>(Script.steps(task));
        List<Script.Tool> extra = new ArrayList<>(SECRET_TOOLS);
        if (mixed) {
            extra.addAll(MIXED_TOOLS);
        }
        for (Script.Tool t : extra) {
            int at = Math.floorMod((task + t.verb()).hashCode(), steps.size() + 1);
            steps.add(at, new Script.Step(task, t, task + "." + t.verb()));
        }
        return steps;
    }

    public static Script.Tool tool(String verb) {
        return java.util.stream.Stream.concat(SECRET_TOOLS.stream(), MIXED_TOOLS.stream()).filter(t -> t.verb().equals(verb))
                .findFirst().orElseGet(() -> Script.tool(verb));
    }

    public static void main(String[] args) throws Exception {
        CampaignTools tools = new CampaignTools();
        FleetCampaignTools secret = new FleetCampaignTools();
        boolean mixed = Boolean.getBoolean("fleet.mixed");
        MixedTools async = mixed ? new MixedTools() : null;
        System.out.println("READY");
        System.out.flush();
        for (String task : args[0].split(",")) {
            try (Task t = Task.open(task, java.time.Duration.ofMinutes(4))) {
                for (Script.Step step : steps(task, mixed)) {
                    System.out.println("STEP " + task + " " + step.tool().verb() + " " + call(tools, secret, async, step, t));
                    System.out.flush();
                }
            }
            System.out.println("DONE " + task);
            System.out.flush();
        }
        System.out.println("ALLDONE");
    }

    /** {@code ok -}, or the final status and the intent key; a retryable answer is tried again while the budget lasts. */
    private static String call(CampaignTools tools, FleetCampaignTools secret, MixedTools async, Script.Step step, Task task)
            throws InterruptedException {
        long backoff = 50;
        boolean toldFull = false;
        while (true) {
            Outcome<?> o;
            try {
                Object r = invoke(tools, secret, async, step);
                if (MIXED_TOOLS.contains(step.tool()) && !("done:" + step.tool().verb() + ":" + step.ref()).equals(r)) {
                    // a future's, a coroutine's or a replayed answer must be the value the body completed with
                    return "error the call answered " + r + ", not the ledger's done:" + step.tool().verb() + ":" + step.ref();
                }
                if (!(r instanceof Outcome<?> out) || out.status() == Status.OK) {
                    return "ok -";
                }
                o = out;
            } catch (Exception e) {
                Throwable c = e;
                while (!(c instanceof ToolOutcomeException) && c.getCause() != null && c.getCause() != c) {
                    c = c.getCause(); // a future's CompletionException or ExecutionException around it
                }
                if (!(c instanceof ToolOutcomeException t)) {
                    return "error " + e.toString().replace('\n', ' ');
                }
                o = t.outcome();
            }
            if (o.status() == Status.RETRYABLE && !toldFull && o.message() != null && o.message().contains("disk full")) {
                // the campaign filled this host's journal disk: refused, nothing applied; said once per step
                toldFull = true;
                System.out.println("REFUSED " + step.task() + " " + step.tool().verb() + " disk full");
                System.out.flush();
            }
            if (o.status() == Status.RETRYABLE && task.remaining().toSeconds() > 5) {
                Thread.sleep(backoff);
                backoff = Math.min(backoff * 2, 500);
                continue;
            }
            return o.status().name().toLowerCase(java.util.Locale.ROOT) + " " + o.intentKey();
        }
    }

    private static Object invoke(CampaignTools tools, FleetCampaignTools secret, MixedTools async, Script.Step step)
            throws Exception {
        String ref = step.ref();
        return switch (step.tool().verb()) {
            case "book_async" -> async.bookAsync(ref).join();
            case "push_suspend" -> MixedTools.runBlocking(async, ref);
            case "transfer" -> async.transfer(ref);
            case "pay_keyed" -> async.payKeyed(ref);
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
