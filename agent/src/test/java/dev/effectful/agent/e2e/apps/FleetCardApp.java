package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;

/** {@code FleetCardApp ORDER}: one task, one card charge of ORDER with the token given as {@code -Dtoken}. */
public final class FleetCardApp {

    private FleetCardApp() {
    }

    public static void main(String[] args) {
        FleetCardTools tools = new FleetCardTools();
        String value;
        try (Task t = Task.open("fleet-card", Duration.ofSeconds(60))) {
            value = tools.charge(System.getProperty("token"), args[0]);
        } catch (ToolOutcomeException e) {
            value = "THROWN " + e.getMessage();
        } catch (Exception e) {
            value = "RAW " + e;
        }
        System.out.println("RESULT charge " + value);
        System.out.println("DONE");
    }
}
