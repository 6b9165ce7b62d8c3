package dev.effectful.it.openai.app;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.it.support.KeyedCharge;

/**
 * The tool written the SDK's way: a class the SDK binds the model's arguments into
 * ({@code functionCall.arguments(ChargeCard.class)}), then the application calls {@code execute()}. A
 * MONEY tool with a key header and no probe; its body is the shared {@link KeyedCharge} against a
 * payment service that deduplicates on {@code Idempotency-Key}.
 */
@JsonClassDescription("Charges the customer's card for an order")
public class ChargeCard {

    @JsonProperty("order_id")
    @JsonPropertyDescription("the order id")
    @IntentKey
    public String orderId;

    @JsonProperty("amount")
    @JsonPropertyDescription("the amount, in any wording")
    public String amount;

    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", keyHeader = "Idempotency-Key")
    public String execute() {
        return KeyedCharge.charge(orderId, amount);
    }
}
