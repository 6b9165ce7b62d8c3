package dev.effectful.testsupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The check each main module's {@code PackageCyclesTest} makes: every package imports the others one way
 * only. A cycle would make two packages one unit that can only be understood, tested and moved together;
 * the check fails on the first import that closes one, naming the classes on it.
 */
public final class PackageCycles {

    private PackageCycles() {
    }

    /**
     * Fails when the packages under {@code roots} form a cycle: the main classes of the calling module and
     * of the reactor modules it compiles against, not their tests and not the libraries in jars. Each
     * package is its own slice.
     */
    public static void assertFreeOfCycles(String... roots) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(roots);
        for (String root : roots) {
            // (**) captures the whole package name below the root
            slices().matching(root + ".(**)").should().beFreeOfCycles().check(classes);
        }
    }
}
