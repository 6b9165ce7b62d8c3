package dev.effectful.runtime.events;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fan-out: nothing for calls nobody wants, every event to who wanted the call, a failing sink kept out. */
class EventsTest {

    static final class Recording implements EventSink {
        final List<String> seen = new ArrayList<>();
        boolean wanted;

        @Override
        public boolean interested(Class<?> toolClass) {
            return wanted;
        }

        @Override
        public void begin(CallTrace trace, int slot) {
            seen.add("begin");
            trace.slot(slot, "open");
        }

        @Override
        public void on(CallEvent e, int slot) {
            seen.add(e.step() + (e.trace().slot(slot) == null ? "" : ":" + e.trace().slot(slot)));
        }

        @Override
        public void abandon(CallTrace trace, int slot) {
            seen.add("abandon");
        }
    }

    static CallEvent event(CallTrace trace, Step step, boolean last) {
        return new CallEvent(step, trace, "t", "", "send_email", "send", "k", 1, null, Reentry.NEW, last ? "ok" : null,
                last ? "yes" : null, null, null, 0, null, null, false, last);
    }

    @Test
    void aCallNobodyWantsGetsNoTrace() {
        Recording sink = new Recording();
        assertThat(new Events(List.of(sink)).begin(EventsTest.class, "send_email")).isNull();
        assertThat(sink.seen).isEmpty();
    }

    @Test
    void theSinksInterestedAtEntryGetEveryEventOfTheCallAndNothingAfterItsLast() {
        Recording watching = new Recording();
        watching.wanted = true;
        Recording idle = new Recording();
        Events events = new Events(List.of(idle, watching));
        CallTrace trace = events.begin(EventsTest.class, "send_email");
        idle.wanted = true; // interest that arrives mid-call waits for the next call
        events.emit(event(trace, Step.INTENT, false));
        events.emit(event(trace, Step.OUTCOME, true));
        events.emit(event(trace, Step.OUTCOME, true));
        events.abandon(trace);
        assertThat(watching.seen).containsExactly("begin", "INTENT:open", "OUTCOME:open");
        assertThat(idle.seen).isEmpty();
    }

    @Test
    void anAbandonedCallIsClosedOnceAndAFailingSinkNeverReachesTheCall() {
        Recording watching = new Recording();
        watching.wanted = true;
        EventSink failing = new EventSink() {
            @Override
            public boolean interested(Class<?> toolClass) {
                return true;
            }

            @Override
            public void on(CallEvent event, int slot) {
                throw new IllegalStateException("broken sink");
            }
        };
        Events events = new Events(List.of(failing, watching));
        CallTrace trace = events.begin(EventsTest.class, "send_email");
        events.emit(event(trace, Step.INTENT, false));
        events.abandon(trace);
        events.abandon(trace);
        events.emit(event(trace, Step.OUTCOME, true));
        assertThat(watching.seen).containsExactly("begin", "INTENT:open", "abandon");
    }
}
