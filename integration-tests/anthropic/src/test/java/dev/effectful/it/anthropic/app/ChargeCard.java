package dev.effectful.it.anthropic.app;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.it.support.KeyedCharge;

/**
 * The tool written the SDK's way: a class whose fields the SDK fills from the model's arguments, then
 * {@code get()}. A MONEY tool with a key header and no probe; its body is the shared {@link KeyedCharge}
 * against a payment service that deduplicates on {@code Idempotency-Key}.
 */
@JsonClassDescription("Charges the customer's card for an order")
public class ChargeCard implements java.util.function.Supplier<String> {

    @JsonProperty("order_id")
    @JsonPropertyDescription("the order id")
    @IntentKey
    public String orderId;

    @JsonProperty("amount")
    @JsonPropertyDescription("the amount, in any wording")
    public String amount;

    @Override
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", keyHeader = "Idempotency-Key")
    public String get() {
        return KeyedCharge.charge(orderId, amount);
    }
}
