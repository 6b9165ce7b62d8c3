package dev.effectful.store.postgres;

import dev.effectful.testsupport.PackageCycles;
import org.junit.jupiter.api.Test;

/**
 * Every package imports the others one way only: the PostgreSQL store and the core module beneath it. A cycle would
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
