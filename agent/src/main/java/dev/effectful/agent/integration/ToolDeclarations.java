package dev.effectful.agent.integration;

import java.util.List;

/** The guarded tools this process has seen declared (their classes loaded), found by the name they are listed under. */
@FunctionalInterface
public interface ToolDeclarations {

    /** Every declaration listed as {@code name}; empty when none (not a guarded tool, or its class not loaded yet). */
    List<ToolDeclaration> named(String name);
}
