package dev.effectful.it.okhttp;

import dev.effectful.agent.e2e.apps.KeyHeaderApp;
import dev.effectful.agent.e2e.apps.KeyHeaderTools;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

import java.io.IOException;

/** KeyHeaderApp's scenario with OkHttp as the client: synchronous {@code execute}, and {@code enqueue}. */
public final class OkHttpKeyHeaderApp {

    private OkHttpKeyHeaderApp() {
    }

    public static void main(String[] args) throws Exception {
        OkHttpClient client = new OkHttpClient();
        KeyHeaderTools.Poster poster = "okhttp-enqueue".equals(args[0]) ? (url, own) -> enqueue(client, url, own)
                : (url, own) -> execute(client, url, own);
        System.out.println("RESULT okhttp_version " + okhttp3.OkHttp.VERSION);
        KeyHeaderApp.run(args[0], poster, System.getProperty("ledger"));
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }

    private static Request request(String url, String ownKey) {
        Request.Builder b = new Request.Builder().url(url)
                .post(RequestBody.create("{}", MediaType.get("application/json")));
        if (ownKey != null) {
            b.header("Idempotency-Key", ownKey);
        }
        return b.build();
    }

    private static String execute(OkHttpClient client, String url, String ownKey) throws IOException {
        try (Response r = client.newCall(request(url, ownKey)).execute()) {
            if (r.code() != 200) {
                throw new IOException("HTTP " + r.code());
            }
            return r.body().string();
        }
    }

    /** The call is made on the tool's thread; OkHttp's dispatcher thread sends it. */
    private static String enqueue(OkHttpClient client, String url, String ownKey) throws IOException, InterruptedException {
        java.util.concurrent.CompletableFuture<String> done = new java.util.concurrent.CompletableFuture<>();
        client.newCall(request(url, ownKey)).enqueue(new okhttp3.Callback() {
            @Override
            public void onFailure(okhttp3.Call call, IOException e) {
                done.completeExceptionally(e);
            }

            @Override
            public void onResponse(okhttp3.Call call, Response r) throws IOException {
                try (r) {
                    if (r.code() != 200) {
                        done.completeExceptionally(new IOException("HTTP " + r.code()));
                    } else {
                        done.complete(r.body().string());
                    }
                }
            }
        });
        try {
            return done.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }
}
