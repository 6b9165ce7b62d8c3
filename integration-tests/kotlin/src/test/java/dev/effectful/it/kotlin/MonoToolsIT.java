package dev.effectful.it.kotlin;

/** {@link AsyncToolMatrix} for a Reactor Mono (Mono.delay, then the SMS; a plain probe). */
class MonoToolsIT extends AsyncToolMatrix {

    @Override
    Class<?> app() throws ClassNotFoundException {
        return Class.forName("dev.effectful.it.kotlin.apps.MonoApp");
    }
}
