package dev.effectful.agent.reliability;

import dev.effectful.Attempt;
import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.ItemKey;
import dev.effectful.Items;
import dev.effectful.Outcome;
import dev.effectful.Status;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One tool of every kind the contract distinguishes, each an HTTP call to the ledger carrying its
 * intent key. The pauses around the request widen the windows a kill can land in: before the
 * effect (intent written, nothing applied) and after it (applied, outcome not yet written).
 */
public class CampaignTools {

    /** A sheet row; the id is the item key. */
    public record Row(@ItemKey String id) {
    }

    private static String key() {
        return Attempt.current().map(Attempt::intentKey).orElse("none");
    }

    private static void pause() throws InterruptedException {
        Thread.sleep(ThreadLocalRandom.current().nextInt(4));
    }

    private static String apply(String verb, String ref, String mode, boolean keyed) throws IOException, InterruptedException {
        pause();
        String k = key();
        String answer = LedgerClient.effect(verb, ref, k, mode, keyed ? k : null);
        pause();
        return answer;
    }

    @EffectfulTool(kind = EffectKind.READ, name = "get_price")
    public String getPrice(@IntentKey String ref) throws IOException, InterruptedException {
        pause();
        return LedgerClient.read("get_price", ref);
    }

    @EffectfulTool(kind = EffectKind.IDEMPOTENT, name = "set_address")
    public String setAddress(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("set_address", ref, "set", false);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_ticket", probe = "findTicket")
    public String createTicket(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("create_ticket", ref, "count", false);
    }

    String findTicket(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("create_ticket", ref);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_note")
    public String createNote(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("create_note", ref, "count", false);
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", keyable = true)
    public String createOrder(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("create_order", ref, "keyed", true);
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findEmail")
    public String sendEmail(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("send_email", ref, "count", false);
    }

    String findEmail(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("send_email", ref);
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_sms")
    public String sendSms(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("send_sms", ref, "count", false);
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", probe = "findCharge")
    public String chargeCard(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("charge_card", ref, "count", false);
    }

    String findCharge(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("charge_card", ref);
    }

    @EffectfulTool(kind = EffectKind.MONEY, name = "refund")
    public String refund(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("refund", ref, "count", false);
    }

    @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "archive_record", probe = "findArchived")
    public String archiveRecord(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("archive_record", ref, "count", false);
    }

    String findArchived(String ref) throws IOException, InterruptedException {
        return LedgerClient.find("archive_record", ref);
    }

    @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "delete_record")
    public String deleteRecord(@IntentKey String ref) throws IOException, InterruptedException {
        return apply("delete_record", ref, "count", false);
    }

    /** A batch: each row its own request, keyed by the call's intent key and the row id. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "write_rows", probe = "findRow")
    public Outcome<Integer> writeRows(@IntentKey String ref, @Items List<Row> rows) throws InterruptedException {
        List<Outcome.Item> items = new ArrayList<>();
        int written = 0;
        for (Row r : rows) {
            try {
                pause();
                LedgerClient.effect("write_rows", ref + ":" + r.id(), key() + ":" + r.id(), "count", null);
                items.add(Outcome.Item.applied(r.id()));
                written++;
            } catch (IOException e) {
                items.add(Outcome.Item.retryable(r.id(), e.toString()));
            }
        }
        return new Outcome<>(Status.OK, EffectApplied.YES, null, null, null, null, null, written, items);
    }

    /** Item-level probe: called with one row. */
    Outcome<Integer> findRow(String ref, List<Row> rows) throws IOException, InterruptedException {
        return LedgerClient.find("write_rows", ref + ":" + rows.get(0).id()) != null ? Outcome.ok(1) : null;
    }
}
