package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.ItemKey;
import dev.effectful.Items;
import dev.effectful.Outcome;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A spreadsheet-like batch tool: each row is written by its own request to the ledger. */
public class BatchTools {

    /** A row; {@code invalid} rows are refused by the sheet, {@code hang} rows land but their answer never comes. */
    public record Row(@ItemKey String id, String value, boolean invalid, boolean hang) {
    }

    public static final AtomicInteger BODY_RUNS = new AtomicInteger();
    public static final List<Integer> BATCH_SIZES = new java.util.concurrent.CopyOnWriteArrayList<>();

    static String rowKey(String sheet, Row r) {
        return sheet + ":" + r.id();
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "write_rows", probe = "findRow")
    public Outcome<Integer> writeRows(@IntentKey String sheet, @Items List<Row> rows) throws InterruptedException {
        BODY_RUNS.incrementAndGet();
        BATCH_SIZES.add(rows.size());
        List<Outcome.Item> items = new ArrayList<>();
        int written = 0;
        for (Row r : rows) {
            if (r.invalid()) {
                items.add(Outcome.Item.rejected(r.id(), "merged cell"));
                continue;
            }
            try {
                if (r.hang() && Boolean.getBoolean("hangRows")) {
                    Http.post("/apply-then-hang/row", rowKey(sheet, r), Duration.ofMillis(Long.getLong("hangMillis", 300)));
                } else {
                    Http.effect("row", rowKey(sheet, r));
                }
                items.add(Outcome.Item.applied(r.id()));
                written++;
            } catch (HttpTimeoutException e) {
                items.add(Outcome.Item.unknown(r.id(), "no answer after sending the row"));
            } catch (IOException e) {
                items.add(Outcome.Item.retryable(r.id(), e.toString()));
            }
        }
        return new Outcome<>(dev.effectful.Status.OK, dev.effectful.EffectApplied.YES, null, null, null, null, null,
                written, items);
    }

    /** Item-level probe: called with one row; finds it in the sheet or answers null. */
    Outcome<Integer> findRow(String sheet, List<Row> rows) throws IOException, InterruptedException {
        Row r = rows.get(0);
        return Http.get("/effect/row", rowKey(sheet, r)).statusCode() == 200 ? Outcome.ok(1) : null;
    }

    /** A paginated read: page 3 fails, the two pages it has come back marked partial. */
    @EffectfulTool(kind = EffectKind.READ, name = "list_orders")
    public Outcome<List<String>> listOrders(@IntentKey String customer) {
        List<String> got = new ArrayList<>();
        for (int page = 1; page <= 4; page++) {
            if (page == 3) {
                return Outcome.partial(got, "page 3 of 4 failed (503); " + got.size() + " orders from pages 1-2");
            }
            got.add("order-" + page + "a");
            got.add("order-" + page + "b");
        }
        return Outcome.ok(got);
    }

    public static List<Row> rows(int n, int invalidAt, int hangAt) {
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            rows.add(new Row("row_" + i, "v" + i, i == invalidAt, i == hangAt));
        }
        return rows;
    }
}
