package dev.effectful.junit;

import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;

import java.util.Optional;

/** What a call gave its caller: a value (possibly an Outcome) or a thrown exception. */
record Seen(Object value, Throwable thrown) {

    static <T> Seen of(ToolCall<T> call, T tool) {
        try {
            return new Seen(call.call(tool), null);
        } catch (SimulatedCrash crash) {
            throw crash;
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof SimulatedCrash crash) {
                throw crash;
            }
            return new Seen(null, e.getCause());
        } catch (Throwable t) {
            return new Seen(null, t);
        }
    }

    Optional<Outcome<?>> outcome() {
        if (value instanceof Outcome<?> o) {
            return Optional.of(o);
        }
        if (thrown instanceof ToolOutcomeException toe) {
            return Optional.of(toe.outcome());
        }
        return Optional.empty();
    }

    boolean ok() {
        return thrown == null && outcome().map(Outcome::isOk).orElse(true);
    }

    Status status() {
        if (thrown != null && outcome().isEmpty()) {
            return null;
        }
        return outcome().map(Outcome::status).orElse(Status.OK);
    }

    /** The value a caller works with: the Outcome's value for Outcome-returning tools. */
    Object payload() {
        return value instanceof Outcome<?> o ? o.value() : value;
    }

    String describe() {
        Optional<Outcome<?>> o = outcome();
        if (o.isPresent()) {
            Outcome<?> out = o.get();
            return out.status().word() + "/effect " + out.effectApplied().word()
                    + (out.retryAfterS() == null ? "" : ", retry_after_s " + out.retryAfterS())
                    + (out.message() == null ? "" : " (\"" + shorten(out.message()) + "\")");
        }
        if (thrown != null) {
            return "threw " + thrown.getClass().getSimpleName() + ": " + shorten(String.valueOf(thrown.getMessage()));
        }
        return "ok, returned " + shorten(String.valueOf(value));
    }

    static String shorten(String s) {
        return s.length() <= 160 ? s : s.substring(0, 157) + "...";
    }
}
