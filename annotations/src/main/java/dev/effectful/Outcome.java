package dev.effectful;

import java.util.List;
import java.util.Objects;

/**
 * What a tool call came to: one of four {@link Status} values, whether its effect landed, and
 * the ids a person or the model needs to act on it.
 *
 * <p>A tool declared to return {@code Outcome} receives failures as an {@code Outcome} value;
 * any other tool receives them as a thrown {@link ToolOutcomeException} whose message is
 * {@link #toJson()}. A tool body may also return an {@code Outcome} it built itself.
 *
 * @param status        ok, retryable, permanent or unknown
 * @param effectApplied yes, no, partial or unknown
 * @param attemptId     id of the attempt whose body ran; null when no body ran
 * @param intentKey     the intent key; null when it could not be derived
 * @param retryAfterS   seconds before a retry may start, when the service said so; else null
 * @param deadlineLeftS seconds left in the task budget; null outside a budgeted task
 * @param message       what happened, for a person and for the model
 * @param value         the tool's value on success; else null
 * @param items         per-item results of a batch tool; empty for other tools
 * @param <T>           the tool's value type
 */
public record Outcome<T>(Status status, EffectApplied effectApplied, String attemptId, String intentKey,
                         Long retryAfterS, Long deadlineLeftS, String message, T value, List<Item> items) {

    /**
     * One item of a batch tool: the primary way a batch tool reports what happened to each item
     * (return an {@code Outcome} whose {@link #items()} name them, or throw a
     * {@link ToolOutcomeException} carrying one), or names as the body goes with
     * {@link Attempt#report(Item)} so an item keeps its truth if the body throws later.
     *
     * @param id      the item's {@link ItemKey}
     * @param applied whether this item's effect landed
     * @param reason  why it did not, when known; else null
     * @param status  what a retry of this item may do: ok for applied items, permanent for items
     *                refused for good (they are reported, never sent again), retryable for items
     *                that may be sent again, unknown for items whose effect nobody can tell
     */
    public record Item(String id, EffectApplied applied, String reason, Status status) {
        /** Validates the required parts. */
        public Item {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(applied, "applied");
            Objects.requireNonNull(status, "status");
        }

        /** An item whose status follows from {@code applied}: yes is ok, no is permanent, else unknown. */
        public Item(String id, EffectApplied applied, String reason) {
            this(id, applied, reason, switch (applied) {
                case YES -> Status.OK;
                case NO -> Status.PERMANENT;
                default -> Status.UNKNOWN;
            });
        }

        /** The item's effect landed. */
        public static Item applied(String id) {
            return new Item(id, EffectApplied.YES, null);
        }

        /** The item was refused for good (invalid): reported, never sent again. */
        public static Item rejected(String id, String reason) {
            return new Item(id, EffectApplied.NO, reason, Status.PERMANENT);
        }

        /** The item did not land for a passing reason: a retry of the batch sends it again. */
        public static Item retryable(String id, String reason) {
            return new Item(id, EffectApplied.NO, reason, Status.RETRYABLE);
        }

        /** Nobody can tell whether the item landed (a timeout after sending it). */
        public static Item unknown(String id, String reason) {
            return new Item(id, EffectApplied.UNKNOWN, reason, Status.UNKNOWN);
        }
    }

    /** Validates the required parts and makes {@code items} immutable. */
    public Outcome {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(effectApplied, "effectApplied");
        items = items == null ? List.of() : List.copyOf(items);
    }

    /** A success carrying {@code value}. */
    public static <T> Outcome<T> ok(T value) {
        return new Outcome<>(Status.OK, EffectApplied.YES, null, null, null, null, null, value, List.of());
    }

    /** Nothing happened and a retry may succeed. */
    public static <T> Outcome<T> retryable(String message) {
        return new Outcome<>(Status.RETRYABLE, EffectApplied.NO, null, null, null, null, message, null, List.of());
    }

    /** Nothing happened and the same call will fail again. */
    public static <T> Outcome<T> permanent(String message) {
        return new Outcome<>(Status.PERMANENT, EffectApplied.NO, null, null, null, null, message, null, List.of());
    }

    /** The effect may or may not have landed. */
    public static <T> Outcome<T> unknown(String message) {
        return new Outcome<>(Status.UNKNOWN, EffectApplied.UNKNOWN, null, null, null, null, message, null, List.of());
    }

    /**
     * What a paginated read that failed half-way returns: the results it has, marked partial and
     * retryable, never an empty or truncated list presented as complete.
     */
    public static <T> Outcome<T> partial(T valueSoFar, String message) {
        return new Outcome<>(Status.RETRYABLE, EffectApplied.PARTIAL, null, null, null, null, message, valueSoFar, List.of());
    }

    /** True when {@link #status()} is {@link Status#OK}. */
    public boolean isOk() {
        return status == Status.OK;
    }

    /** A copy with another retry-after, in seconds. */
    public Outcome<T> withRetryAfterS(Long seconds) {
        return new Outcome<>(status, effectApplied, attemptId, intentKey, seconds, deadlineLeftS, message, value, items);
    }

    /** A copy with another effect flag. */
    public Outcome<T> withEffectApplied(EffectApplied applied) {
        return new Outcome<>(status, applied, attemptId, intentKey, retryAfterS, deadlineLeftS, message, value, items);
    }

    /** A copy with per-item results. */
    public Outcome<T> withItems(List<Item> newItems) {
        return new Outcome<>(status, effectApplied, attemptId, intentKey, retryAfterS, deadlineLeftS, message, value, newItems);
    }

    /**
     * The compact JSON handed to the model: {@code outcome}, {@code effect_applied}, then
     * {@code attempt_id}, {@code intent_key}, {@code retry_after_s}, {@code deadline_left_s},
     * {@code message} and {@code items} when present. The value itself is not included.
     */
    public String toJson() {
        StringBuilder sb = new StringBuilder(160);
        sb.append("{\"outcome\":\"").append(status.word()).append('"');
        sb.append(",\"effect_applied\":\"").append(effectApplied.word()).append('"');
        if (attemptId != null) {
            sb.append(",\"attempt_id\":");
            quote(sb, attemptId);
        }
        if (intentKey != null) {
            sb.append(",\"intent_key\":");
            quote(sb, intentKey);
        }
        if (retryAfterS != null) {
            sb.append(",\"retry_after_s\":").append(retryAfterS.longValue());
        }
        if (deadlineLeftS != null) {
            sb.append(",\"deadline_left_s\":").append(deadlineLeftS.longValue());
        }
        if (message != null) {
            sb.append(",\"message\":");
            quote(sb, message);
        }
        if (!items.isEmpty()) {
            sb.append(",\"items\":[");
            for (int i = 0; i < items.size(); i++) {
                Item item = items.get(i);
                if (i > 0) {
                    sb.append(',');
                }
                sb.append("{\"id\":");
                quote(sb, item.id());
                sb.append(",\"applied\":\"").append(item.applied().word()).append('"');
                if (item.reason() != null) {
                    sb.append(",\"reason\":");
                    quote(sb, item.reason());
                }
                sb.append('}');
            }
            sb.append(']');
        }
        return sb.append('}').toString();
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
