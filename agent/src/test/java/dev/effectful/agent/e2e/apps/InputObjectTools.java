package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Slot;

import java.util.function.Supplier;

/**
 * Tools written the way SDKs bind a model's arguments: into one record or class, or into the fields of
 * the tool object itself ({@code Supplier}-style), with {@code @IntentKey} on those components.
 */
public final class InputObjectTools {

    private InputObjectTools() {
    }

    /** A record bound from JSON: the order is the target, the reason is free text the model rephrases. */
    public record RefundInput(@IntentKey String orderId, String reason) {
    }

    /** A class bound from JSON, with a repeated act numbered by a field. */
    public static class ReminderInput {
        @IntentKey
        public String customer;
        @Slot
        int number;
        public String text;

        public ReminderInput(String customer, int number, String text) {
            this.customer = customer;
            this.number = number;
            this.text = text;
        }
    }

    public static final class Refunds {
        @EffectfulTool(kind = EffectKind.MONEY, name = "refund")
        public String refund(RefundInput input) {
            return InheritedTools.effect("refund");
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "remind")
        public String remind(ReminderInput input) {
            return InheritedTools.effect("remind");
        }
    }

    /** The SDK's tool class: it fills the fields from the model's arguments, then calls {@code get()}. */
    public static final class SendSms implements Supplier<String> {
        @IntentKey
        private final String phone;
        private final String text;

        public SendSms(String phone, String text) {
            this.phone = phone;
            this.text = text;
        }

        @Override
        @EffectfulTool(kind = EffectKind.SEND, name = "send_sms")
        public String get() {
            return InheritedTools.effect("send_sms");
        }
    }
}
