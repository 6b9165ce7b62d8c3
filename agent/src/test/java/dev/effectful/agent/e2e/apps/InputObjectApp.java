package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.agent.e2e.apps.InputObjectTools.RefundInput;
import dev.effectful.agent.e2e.apps.InputObjectTools.ReminderInput;
import dev.effectful.agent.e2e.apps.InputObjectTools.Refunds;
import dev.effectful.agent.e2e.apps.InputObjectTools.SendSms;

import java.time.Duration;

import static dev.effectful.agent.e2e.apps.CoreApp.print;

/** Each input-object tool called for one intent, then again with the model's rephrasing, then for another target. */
public final class InputObjectApp {

    private InputObjectApp() {
    }

    public static void main(String[] args) {
        try (Task t = Task.open("t-input-objects", Duration.ofSeconds(20))) {
            Refunds refunds = new Refunds();
            print("record_1", () -> refunds.refund(new RefundInput("ord-1", "damaged in transit")));
            print("record_2", () -> refunds.refund(new RefundInput("ord-1", "The parcel arrived damaged")));
            print("record_other", () -> refunds.refund(new RefundInput("ord-2", "damaged in transit")));

            print("class_1", () -> refunds.remind(new ReminderInput("ann", 1, "Your order ships today")));
            print("class_2", () -> refunds.remind(new ReminderInput("ann", 1, "Reminder: your order ships today")));
            print("class_slot2", () -> refunds.remind(new ReminderInput("ann", 2, "Your order ships today")));

            print("supplier_1", () -> new SendSms("+15550001", "Your code is ready").get());
            print("supplier_2", () -> new SendSms("+15550001", "Hi! Your code is ready.").get());
            print("supplier_other", () -> new SendSms("+15550002", "Your code is ready").get());
        }
        System.out.println("DONE");
    }
}
