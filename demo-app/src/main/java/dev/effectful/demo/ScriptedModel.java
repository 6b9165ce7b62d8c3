package dev.effectful.demo;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plays the model offline. It follows one plan (search, order, email, charge, cancel) and reacts
 * only to the tool results LangChain4j hands it, with the habits that make real models dangerous:
 * it re-issues a failed call at once with REPHRASED free text but the same target, it re-sends a
 * call whose reply it "lost", and it only waits out a Retry-After once it has been told twice.
 */
final class ScriptedModel implements ChatModel {

    static final String CUSTOMER = "c-42";
    static final String EMAIL = "ada@example.com";
    static final String OLD_ORDER = "o-1001";
    static final long AMOUNT_CENTS = 8900;

    private static final String[] STEPS = {"search_products", "create_order", "send_email", "charge_card", "cancel_order"};
    private static final String[] NOTES = {"Leave at reception", "Please leave the parcel at reception",
            "Deliver to the reception desk, thanks", "Reception, please"};
    private static final String[] SUBJECTS = {"Order confirmed", "Your order is confirmed!", "Confirmation of your order",
            "Re: your order"};
    private static final String[] REASONS = {"customer asked to cancel the old order", "Customer requested cancellation",
            "Cancel at the customer's request", "Customer no longer wants it"};
    private static final Pattern ORDER_ID = Pattern.compile("\"order_id\":\"(o-\\d+)\"");
    private static final Pattern RETRY_AFTER = Pattern.compile("\"retry_after_s\":(\\d+)");

    private final boolean sendDuplicate;
    private int step;
    private int tries;
    private int unknownInARow;
    private boolean waitedForRateLimit;
    private boolean impatientOnce;
    private boolean duplicateSent;
    private String orderId = "o-?";
    private final StringBuilder report = new StringBuilder();
    private int callSeq;

    /** @param sendDuplicate whether to re-send one successful create_order as if its reply was lost */
    ScriptedModel(boolean sendDuplicate) {
        this.sendDuplicate = sendDuplicate;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        ChatMessage last = messages.get(messages.size() - 1);
        if (!(last instanceof ToolExecutionResultMessage result)) {
            return call(0);
        }
        return react(result.text() == null ? "" : result.text(), Boolean.TRUE.equals(result.isError()));
    }

    private ChatResponse react(String text, boolean isError) {
        String step = STEPS[this.step];
        boolean failed = isError || text.contains("\"status\":\"error\"")
                || (text.startsWith("{\"outcome\":") && !text.startsWith("{\"outcome\":\"ok\""));
        if (!failed) {
            unknownInARow = 0;
            if (step.equals("create_order")) {
                Matcher m = ORDER_ID.matcher(text);
                if (m.find() && orderId.equals("o-?")) {
                    orderId = m.group(1);
                }
                if (sendDuplicate && !duplicateSent) {
                    duplicateSent = true;
                    return call(tries - 1); // the very same call again, as after a lost reply
                }
                if (text.contains("discontinued")) {
                    report.append("cable-9 is discontinued, so I ordered the dock only. ");
                }
            }
            report.append(step).append(": done. ");
            return next();
        }
        boolean permanent = text.contains("\"outcome\":\"permanent\"") || text.matches("(?s)^4\\d\\d from .*");
        boolean unknown = text.contains("\"outcome\":\"unknown\"");
        unknownInARow = unknown ? unknownInARow + 1 : 0;
        if (permanent || unknownInARow >= 2 || tries >= 4) {
            report.append(step).append(permanent ? ": refused, not retrying. " : unknownInARow >= 2
                    ? ": outcome unknown, a person must check. " : ": gave up. ");
            return next();
        }
        Matcher after = RETRY_AFTER.matcher(text);
        if (after.find()) {
            if (impatientOnce) {
                sleep(Long.parseLong(after.group(1)) * 1000 + 100);
                waitedForRateLimit = true;
            }
            impatientOnce = true;
        }
        return call(tries); // rephrased: same target, different words
    }

    private ChatResponse next() {
        step++;
        tries = 0;
        unknownInARow = 0;
        if (step == STEPS.length) {
            return ChatResponse.builder().aiMessage(AiMessage.from(report.toString().trim())).build();
        }
        return call(0);
    }

    /** Issues the current step with the phrasing numbered {@code phrasing}. */
    private ChatResponse call(int phrasing) {
        tries++;
        int k = Math.max(0, phrasing) % 4;
        String args = switch (STEPS[step]) {
            case "search_products" -> "{\"query\":\"usb-c dock and cable\"}";
            case "create_order" -> "{\"customerId\":\"" + CUSTOMER + "\",\"skus\":[\"dock-1\",\"cable-9\"],\"note\":\"" + NOTES[k] + "\"}";
            case "send_email" -> "{\"orderId\":\"" + orderId + "\",\"to\":\"" + EMAIL + "\",\"subject\":\"" + SUBJECTS[k]
                    + "\",\"body\":\"Hi Ada, your USB-C dock is on its way.\"}";
            case "charge_card" -> "{\"orderId\":\"" + orderId + "\",\"amountCents\":" + AMOUNT_CENTS + "}";
            default -> "{\"orderId\":\"" + OLD_ORDER + "\",\"reason\":\"" + REASONS[k] + "\"}";
        };
        ToolExecutionRequest req = ToolExecutionRequest.builder()
                .id("call_" + (++callSeq)).name(STEPS[step]).arguments(args).build();
        return ChatResponse.builder().aiMessage(AiMessage.from(req)).build();
    }

    boolean waitedForRateLimit() {
        return waitedForRateLimit;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
