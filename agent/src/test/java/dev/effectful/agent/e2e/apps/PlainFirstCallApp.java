package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.time.Duration;
import java.util.List;

/**
 * A fresh JVM whose first call has only a string, a number and a flag for arguments and a string for
 * its result, then, once that was served ({@code SERVED} on stdout), a call keyed by a record. Run
 * with {@code -Xlog:class+load:stdout}, the lines before {@code SERVED} are what the agent loaded to
 * serve a plain first call.
 */
public final class PlainFirstCallApp {

    private PlainFirstCallApp() {
    }

    public static void main(String[] args) {
        try (Task t = Task.open("t-plain", Duration.ofSeconds(60))) {
            System.out.println("SERVED " + new PlainTools().notify("alice@example.com", 3, true));
            System.out.println("COMPLEX " + new BookingTools().book(new Booking("room-1", List.of("ann", "bob"))));
        }
    }

    /** A record: its canonical JSON needs Jackson's mapper. */
    public record Booking(String room, List<String> guests) {
    }

    /** Its own class, loaded (and rewritten) by the first call. */
    public static class PlainTools {

        @EffectfulTool(kind = EffectKind.SEND, name = "plain_notify")
        public String notify(@IntentKey String to, int times, boolean urgent) {
            return Attempt.current().isPresent() ? "guarded" : "unguarded";
        }
    }

    /**
     * A tool taking a record, in a class of its own loaded after {@code SERVED}: a woven tool that
     * needs Jackson has the agent load it in the background once the engine is open.
     */
    public static class BookingTools {

        @EffectfulTool(kind = EffectKind.SEND, name = "plain_book")
        public String book(@IntentKey Booking booking) {
            return Attempt.current().isPresent() ? "guarded" : "unguarded";
        }
    }
}
