package dev.effectful.demo;

/** Placeholder until the demo issue: proves the module builds and runs. */
public final class DemoMain {
    private DemoMain() {
    }

    public static void main(String[] args) {
        System.out.println("effectful demo: not built yet (see issue 7)");
    }
}
