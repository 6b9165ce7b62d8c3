package dev.effectful.cli;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Every package imports the others one way only: the CLI and the core module beneath it. A cycle would
 * make two packages one unit that can only be understood, tested and moved together; this test fails
 * the build on the first import that closes one, naming the classes on it.
 */
class PackageCyclesTest {

    @Test
    void packagesAreFreeOfCycles() {
        // the main classes of this module and of the reactor modules it compiles against, not their tests
        // and not the libraries in jars
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.effectful");
        // (**) captures the whole package name: each package is its own slice
        slices().matching("dev.effectful.(**)").should().beFreeOfCycles().check(classes);
    }
}
