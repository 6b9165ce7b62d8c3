package dev.effectful.junit.samples;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;

import java.io.IOException;
import java.net.URI;

/** A correct READ tool: its 200s are checked too. */
public class PriceTools extends HttpTool {

    public PriceTools(URI base) {
        super(base);
    }

    @EffectfulTool(kind = EffectKind.READ, name = "get_price", check = "checkPrice")
    public String price(@IntentKey String sku) throws IOException, InterruptedException {
        return bodyOf(get("prices?sku=" + q(sku)));
    }

    void checkPrice(String answer) {
        refuseErrors(answer, "the price service failed");
    }
}
