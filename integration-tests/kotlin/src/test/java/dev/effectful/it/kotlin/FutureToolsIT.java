package dev.effectful.it.kotlin;

/** {@link AsyncToolMatrix} for a Java CompletableFuture (the work on the common pool after a delay; a probe of the same shape). */
class FutureToolsIT extends AsyncToolMatrix {

    @Override
    Class<?> app() throws ClassNotFoundException {
        return Class.forName("dev.effectful.it.kotlin.apps.FutureApp");
    }
}
