package dev.effectful.it.springboot;

import dev.effectful.Task;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.time.Duration;

/**
 * A Spring Boot application run from its fat jar, where logback lives in the launcher's class loader
 * and the system class loader sees no SLF4J. {@code call}: one guarded call that succeeds; {@code held}:
 * a send whose answer is lost (its outcome unknown, no probe), then the model's two repeats of it;
 * {@code repeat}: one more repeat, in a new process.
 * Prints {@code RESULT name value} lines for the test.
 */
@SpringBootApplication
public class LoggingApp {

    public static void main(String[] args) {
        SpringApplication.run(LoggingApp.class, args).close();
    }

    @Bean
    CommandLineRunner scenario(MailTools tools) {
        return args -> {
            System.out.println("RESULT tool_loader " + MailTools.class.getClassLoader().getClass().getName());
            System.out.println("RESULT system_sees_slf4j " + visible("org.slf4j.LoggerFactory", ClassLoader.getSystemClassLoader()));
            switch (args[0]) {
                case "call" -> {
                    try (Task t = Task.open("order-1", Duration.ofSeconds(30))) {
                        System.out.println("RESULT answer " + tools.sendReceipt("ann@example.com"));
                    }
                }
                case "held" -> {
                    try (Task t = Task.open("t-held", Duration.ofSeconds(30))) {
                        for (int i = 1; i <= 3; i++) {
                            try {
                                tools.notifyCustomer("bob@example.com", "your parcel left");
                                System.out.println("RESULT call" + i + " ok");
                            } catch (Exception e) {
                                System.out.println("RESULT call" + i + " " + e.getClass().getSimpleName());
                            }
                        }
                    }
                }
                case "repeat" -> {
                    // after a restart: the model repeats the held call once more
                    try (Task t = Task.open("t-held", Duration.ofSeconds(30))) {
                        tools.notifyCustomer("bob@example.com", "your parcel left");
                        System.out.println("RESULT repeat ok");
                    } catch (Exception e) {
                        System.out.println("RESULT repeat " + e.getClass().getSimpleName());
                    }
                }
                default -> throw new IllegalArgumentException(args[0]);
            }
        };
    }

    private static String visible(String name, ClassLoader loader) {
        try {
            Class.forName(name, false, loader);
            return "yes";
        } catch (ClassNotFoundException e) {
            return "no";
        }
    }
}
