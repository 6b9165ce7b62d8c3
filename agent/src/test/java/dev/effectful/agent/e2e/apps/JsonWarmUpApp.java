package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A tool class with a record-keyed tool is loaded at start, and only a plain call is made: the agent
 * should load Jackson in the background once the engine is open, before any call needs it. Run with
 * {@code -Xlog:class+load=info:file=LOG}; the app waits (bounded) until LOG shows Jackson's mapper,
 * prints {@code WARMED}, and only then makes the record call ({@code COMPLEX}).
 */
public final class JsonWarmUpApp {

    private static final String MAPPER = " com.fasterxml.jackson.databind.ObjectMapper ";

    private JsonWarmUpApp() {
    }

    public static void main(String[] args) throws Exception {
        Path log = Path.of(System.getProperty("classload.log"));
        BookingDesk desk = new BookingDesk();
        try (Task t = Task.open("t-warm", Duration.ofSeconds(60))) {
            System.out.println("SERVED " + desk.ping("desk-1"));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (System.nanoTime() < deadline && !Files.readString(log).contains(MAPPER)) {
                Thread.sleep(50);
            }
            System.out.println(Files.readString(log).contains(MAPPER) ? "WARMED" : "NOT-WARMED");
            System.out.println("COMPLEX " + desk.book(new PlainFirstCallApp.Booking("room-2", List.of("cy"))));
        }
    }

    /** One class: a plain tool and one keyed by a record. */
    public static class BookingDesk {

        @EffectfulTool(kind = EffectKind.READ, name = "desk_ping")
        public String ping(@IntentKey String desk) {
            return Attempt.current().isPresent() ? "guarded" : "unguarded";
        }

        @EffectfulTool(kind = EffectKind.SEND, name = "desk_book")
        public String book(@IntentKey PlainFirstCallApp.Booking booking) {
            return Attempt.current().isPresent() ? "guarded" : "unguarded";
        }
    }
}
