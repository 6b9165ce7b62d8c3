package dev.effectful.it.kotlin;

/** {@link AsyncToolMatrix} for a Kotlin suspend function (delay, then the SMS on Dispatchers.IO; a suspend probe). */
class SuspendToolsIT extends AsyncToolMatrix {

    @Override
    Class<?> app() throws ClassNotFoundException {
        return Class.forName("dev.effectful.it.kotlin.apps.SuspendApp");
    }
}
