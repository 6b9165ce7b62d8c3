package dev.effectful.junit.samples;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.ItemKey;
import dev.effectful.Items;
import dev.effectful.Outcome;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** Batch tools writing rows of a sheet, one request per row; the receiver rejects invalid rows with 422. */
public final class RowTools {

    private RowTools() {
    }

    /** A row of the sheet, told apart by its id. */
    public record Row(@ItemKey String id, String value) {
    }

    /** Correct: one outcome per row, so a retry sends only what did not land. */
    public static class PerItem extends HttpTool {
        public PerItem(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT, name = "write_rows")
        public Outcome<String> writeRows(@IntentKey String sheet, @Items List<Row> rows)
                throws IOException, InterruptedException {
            List<Outcome.Item> items = new ArrayList<>();
            for (Row row : rows) {
                HttpResponse<String> r = post("rows?sheet=" + q(sheet) + "&id=" + q(row.id()), row.value());
                items.add(r.statusCode() == 200 ? Outcome.Item.applied(row.id())
                        : Outcome.Item.rejected(row.id(), r.statusCode() + ": " + r.body()));
            }
            boolean all = items.stream().allMatch(i -> i.applied() == EffectApplied.YES);
            return all ? Outcome.ok("written") : Outcome.<String>permanent("some rows were refused").withItems(items);
        }
    }

    /** Broken: one outcome for the whole batch; it throws on the first refused row. */
    public static class OneOutcome extends HttpTool {
        public OneOutcome(URI base) {
            super(base);
        }

        @EffectfulTool(kind = EffectKind.IDEMPOTENT, name = "write_rows")
        public String writeRows(@IntentKey String sheet, @Items List<Row> rows) throws IOException, InterruptedException {
            for (Row row : rows) {
                bodyOf(post("rows?sheet=" + q(sheet) + "&id=" + q(row.id()), row.value()));
            }
            return "written";
        }
    }
}
