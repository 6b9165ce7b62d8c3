package dev.effectful.core.journal;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Multiplies every property's tries by {@code -Deffectful.properties.tries=N} (default 1), so the default
 * build stays a few seconds per class while a long run ({@code N} in the hundreds) uses the very same
 * properties; each {@code @Property(tries = ...)} states its default cost where it is declared. Prints one
 * line per property ({@code effectful.properties: <property> tries=<n> ms=<t>}) so a long run's total of
 * generated inputs is a sum over the test output, not a guess.
 */
public final class ScaledTries implements AroundPropertyHook {

    /** The multiplier; 1 in the default build. */
    public static int factor() {
        return Math.max(1, Integer.getInteger("effectful.properties.tries", 1));
    }

    /** Declared on a class, it applies to every property in it (a hook's own default is the class alone). */
    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        int base = context.attributes().tries().orElse(1000);
        context.attributes().setTries((int) Math.min(Integer.MAX_VALUE, (long) base * factor()));
        long t0 = System.nanoTime();
        PropertyExecutionResult result = property.execute();
        System.out.println("effectful.properties: " + context.extendedLabel() + " tries=" + result.countTries()
                + " ms=" + (System.nanoTime() - t0) / 1_000_000);
        return result;
    }
}
