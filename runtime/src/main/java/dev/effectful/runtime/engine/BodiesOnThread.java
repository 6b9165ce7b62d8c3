package dev.effectful.runtime.engine;

/**
 * The guarded calls whose body is running on the current thread, innermost first. A proxy in front
 * of a guarded implementation, or a generated subclass calling {@code super}, reaches a second
 * guarded method for the same intent from inside the first one's body: that inner call is part of
 * the outer attempt. Without this it would wait for the outer call's in-flight claim, which waits
 * for it: a deadlock until the budget runs out.
 */
final class BodiesOnThread {

    private final ThreadLocal<Call> innermost = new ThreadLocal<>();

    Call innermost() {
        return innermost.get();
    }

    void entered(Call call) {
        call.enclosedBy(innermost.get());
        innermost.set(call);
    }

    /** Unwinds to what enclosed {@code call}, also past an inner call that never reached its exit. */
    void left(Call call) {
        for (Call c = innermost.get(); c != null; c = c.enclosing()) {
            if (c == call) {
                // null, not remove(): the thread's entry stays for its next call (re-creating it per
                // call cost a map probe, an allocation and a stale-slot sweep); null pins nothing
                innermost.set(call.enclosing());
                return;
            }
        }
    }
}
