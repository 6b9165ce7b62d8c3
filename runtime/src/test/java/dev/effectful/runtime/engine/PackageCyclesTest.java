package dev.effectful.runtime.engine;

import dev.effectful.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

/**
 * Every package imports the others one way only: the runtime's packages, with the core module's beneath them. A cycle would
 * make two packages one unit that can only be understood, tested and moved together; this test fails
 * the build on the first import that closes one, naming the classes on it.
 */
class PackageCyclesTest {

    @Test
    void packagesAreFreeOfCycles() {
        // this module's classes and those of the reactor modules it compiles against, under one root
        PackageCycles.assertFreeOfCycles("dev.effectful");
    }
}
