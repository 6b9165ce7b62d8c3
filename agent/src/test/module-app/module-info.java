/**
 * An application in a named module that requires the API module from effectful-annotations.
 * Compiled by IsolationIT at test time (Maven compiles the test sources as one unnamed module).
 */
module app {
    requires dev.effectful;
}
