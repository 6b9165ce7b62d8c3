package dev.effectful.cli;

import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * The CLI module's copy of the core module's {@code ScaledTries} (journal's test classes are not on this
 * module's class path, and a test-jar for one hook would couple the builds): multiplies every property's
 * tries by {@code -Deffectful.properties.tries=N} and prints {@code effectful.properties: <property>
 * tries=<n> ms=<t>} per property, so the long run's figure is a sum over the test output.
 */
public final class ScaledTries implements AroundPropertyHook {

    @Override
    public PropagationMode propagateTo() {
        return PropagationMode.ALL_DESCENDANTS;
    }

    @Override
    public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
        int factor = Math.max(1, Integer.getInteger("effectful.properties.tries", 1));
        int base = context.attributes().tries().orElse(1000);
        context.attributes().setTries((int) Math.min(Integer.MAX_VALUE, (long) base * factor));
        long t0 = System.nanoTime();
        PropertyExecutionResult result = property.execute();
        System.out.println("effectful.properties: " + context.extendedLabel() + " tries=" + result.countTries()
                + " ms=" + (System.nanoTime() - t0) / 1_000_000);
        return result;
    }
}
