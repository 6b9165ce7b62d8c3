package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static dev.effectful.agent.e2e.apps.CoreApp.print;

/**
 * One replica of a fleet: the same task may reach any of them. Gates are files the test creates,
 * so that several JVMs act at one moment or wait for the test to break something first.
 */
public final class FleetApp {

    private FleetApp() {
    }

    public static void main(String[] args) throws Exception {
        FleetTools tools = new FleetTools();
        switch (args[0]) {
            case "charge" -> {
                try (Task t = Task.open("fleet-order", Duration.ofSeconds(60))) {
                    print("charge", () -> tools.charge(args[1]));
                }
            }
            case "ship" -> {
                System.out.println("READY");
                System.out.flush();
                awaitFile(Path.of(args[2]));
                try (Task t = Task.open("fleet-ship", Duration.ofSeconds(60))) {
                    print("ship", () -> tools.ship(args[1]));
                }
            }
            case "outage" -> {
                Path gates = Path.of(args[1]);
                try (Task t = Task.open("fleet-outage", Duration.ofSeconds(60))) {
                    print("before", () -> tools.charge("o-before"));
                }
                System.out.println("READY down");
                System.out.flush();
                awaitFile(gates.resolve("down"));
                try (Task t = Task.open("fleet-outage-during", Duration.ofSeconds(8))) {
                    long t0 = System.nanoTime();
                    print("during", () -> tools.charge("o-during"));
                    System.out.println("RESULT during_ms " + (System.nanoTime() - t0) / 1_000_000);
                    print("read", () -> tools.price("sku-1"));
                }
                System.out.println("READY up");
                System.out.flush();
                awaitFile(gates.resolve("up"));
                try (Task t = Task.open("fleet-outage-during", Duration.ofSeconds(60))) {
                    print("after", () -> tools.charge("o-during"));
                    print("again", () -> tools.charge("o-during"));
                }
            }
            default -> throw new IllegalArgumentException("no scenario " + args[0]);
        }
        System.out.println("DONE");
    }

    private static void awaitFile(Path p) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!Files.exists(p)) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("gate " + p + " never opened");
            }
            Thread.sleep(2);
        }
    }
}
