package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.ItemKey;
import dev.effectful.Items;
import dev.effectful.Outcome;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Tools whose requests carry their intent key in {@code Idempotency-Key}, sent through any HTTP client. */
public class KeyHeaderTools {

    /** One HTTP client: POSTs to {@code url}, with {@code ownKey} as the application's own header when not null. */
    public interface Poster {
        /** The body of a 200; anything else throws, as a service's client library would. */
        String post(String url, String ownKey) throws IOException, InterruptedException;
    }

    /** A row of a batch: its id is the item key. */
    public record Row(@ItemKey String id, boolean failAtService) {
    }

    private final Poster poster;
    private final String base;

    public KeyHeaderTools(Poster poster, String base) {
        this.poster = poster;
        this.base = base;
    }

    /** A keyable CREATE by its key header alone: no keyable = true, no probe. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "create_order", keyHeader = "Idempotency-Key")
    public String createOrder(@IntentKey String customer, String note, boolean failAtService, String ownKey)
            throws IOException, InterruptedException {
        return poster.post(base + "/record/" + customer + (failAtService ? "?fail=1" : ""), ownKey);
    }

    /** Each row sent inside {@code Attempt.sending(row.id())}; then one request for the whole sheet, outside it. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "write_rows", keyHeader = "Idempotency-Key")
    public Outcome<Void> writeRows(@IntentKey String sheet, @Items List<Row> rows) throws InterruptedException {
        Attempt attempt = Attempt.current().orElseThrow();
        List<Outcome.Item> items = new ArrayList<>();
        for (Row r : rows) {
            try (Attempt.Scope sending = attempt.sending(r.id())) {
                poster.post(base + "/record/" + sheet + "-" + r.id() + (r.failAtService() ? "?fail=1" : ""), null);
                items.add(Outcome.Item.applied(r.id()));
            } catch (IOException e) {
                items.add(Outcome.Item.unknown(r.id(), e.getMessage()));
            }
        }
        try {
            poster.post(base + "/record/" + sheet + "-summary", null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        boolean all = items.stream().allMatch(i -> i.applied() == dev.effectful.EffectApplied.YES);
        return new Outcome<>(all ? dev.effectful.Status.OK : dev.effectful.Status.UNKNOWN,
                all ? dev.effectful.EffectApplied.YES : dev.effectful.EffectApplied.PARTIAL,
                null, null, null, null, null, null, items);
    }
}
