package dev.effectful.junit;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every {@link FaultPoint} keeps, whatever its receiver: the one fault armed for the next effect
 * request, how many effect requests came, and how many are being served now (a request waiting out an
 * injected delay is still being served, so the kit does not judge the tool before it has answered).
 */
abstract class ArmedFaultPoint implements FaultPoint {

    private final AtomicReference<Fault> armed = new AtomicReference<>();
    private final AtomicInteger requests = new AtomicInteger();
    /** Requests being served now; the receiver counts one up when it starts and down when it has answered. */
    final AtomicInteger serving = new AtomicInteger();

    @Override
    public void arm(Fault fault) {
        armed.set(fault);
    }

    @Override
    public void disarm() {
        armed.set(null);
    }

    @Override
    public int requests() {
        return requests.get();
    }

    /** No request is being served now (none still waiting out an injected delay). */
    boolean idle() {
        return serving.get() == 0;
    }

    /** Counts one effect request and hands it the armed fault, once: later requests meet none. */
    final Fault effectRequest() {
        requests.incrementAndGet();
        return takeFault();
    }

    /** The armed fault, once, for a request that is not counted as an effect request; null when none. */
    final Fault takeFault() {
        return armed.getAndSet(null);
    }
}
