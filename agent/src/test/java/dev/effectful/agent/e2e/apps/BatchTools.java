package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.ItemKey;
import dev.effectful.Items;
import dev.effectful.Outcome;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    /**
     * A batch body that writes rows one request at a time and throws part-way, on the row
     * named by {@code failOn}: {@code failWith=iae} a validation error before that row's request,
     * {@code failWith=connect} a real connection refused. With {@code nameRows} (default) it names
     * each written row as it goes, so the written row keeps its truth when the body throws.
     */
    @EffectfulTool(kind = EffectKind.CREATE, name = "copy_rows", probe = "findRow")
    public Outcome<Integer> copyRows(@IntentKey String sheet, @Items List<Row> rows) throws IOException, InterruptedException {
        return copyEach(sheet, rows);
    }

    /** The same body with no probe: after the throw, the rows it did not name are held per its kind (CREATE). */
    @EffectfulTool(kind = EffectKind.CREATE, name = "copy_rows_unprobed")
    public Outcome<Integer> copyRowsUnprobed(@IntentKey String sheet, @Items List<Row> rows)
            throws IOException, InterruptedException {
        return copyEach(sheet, rows);
    }

    private static Outcome<Integer> copyEach(String sheet, List<Row> rows) throws IOException, InterruptedException {
        BODY_RUNS.incrementAndGet();
        BATCH_SIZES.add(rows.size());
        for (Row r : rows) {
            if (r.id().equals(System.getProperty("failOn"))) {
                if ("connect".equals(System.getProperty("failWith"))) {
                    postToClosedPort();
                }
                throw new IllegalArgumentException(r.id() + ": value '" + r.value() + "' fails the sheet's validation");
            }
            Http.effect("row", rowKey(sheet, r));
            if (Boolean.parseBoolean(System.getProperty("nameRows", "true"))) {
                Attempt.current().ifPresent(a -> a.report(Outcome.Item.applied(r.id())));
            }
        }
        return Outcome.ok(rows.size());
    }

    /** A real connection refused: a loopback port that was just freed. */
    private static void postToClosedPort() throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/effect/row"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        throw new IllegalStateException("port " + port + " answered; expected connection refused");
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

    /** Rows {@code first..last}, their free-text values phrased as {@code phrasing} says (a retry rephrases). */
    public static List<Row> rowsBetween(int first, int last, String phrasing) {
        List<Row> rows = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            rows.add(new Row("row_" + i, phrasing + " " + i, false, false));
        }
        return rows;
    }

    public static List<Row> rows(int n, int invalidAt, int hangAt) {
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            rows.add(new Row("row_" + i, "v" + i, i == invalidAt, i == hangAt));
        }
        return rows;
    }
}
