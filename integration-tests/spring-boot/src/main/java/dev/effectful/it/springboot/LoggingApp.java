package dev.effectful.it.springboot;

import dev.effectful.Task;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import java.time.Duration;

/**
 * A Spring Boot application run from its fat jar, where logback lives in the launcher's class loader
 * and the system class loader sees no SLF4J. {@code call}: one guarded call that succeeds; {@code held}:
 * a send whose answer is lost (its outcome unknown, no probe), then the model's two repeats of it;
 * {@code repeat}: one more repeat, in a new process; {@code serve}: a web application with the actuator and
 * {@code effectful-spring-boot}, left running after an ok call, a held one and one waiting for approval.
 * Prints {@code RESULT name value} lines for the test.
 */
@SpringBootApplication
public class LoggingApp {

    public static void main(String[] args) {
        ConfigurableApplicationContext context = SpringApplication.run(LoggingApp.class, args);
        if (!"serve".equals(args[0])) {
            context.close();
        }
    }

    @Bean
    CommandLineRunner scenario(MailTools tools, RefundTools refunds, Environment env) {
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
                case "serve" -> {
                    // a web application (--spring.main.web-application-type=servlet) with the actuator: one ok
                    // call, one held intent (outcome unknown), one intent waiting for approval; then it serves
                    System.out.println("RESULT port " + env.getProperty("local.server.port"));
                    try (Task t = Task.open("order-2", Duration.ofSeconds(30))) {
                        System.out.println("RESULT ok " + tools.sendReceipt("cy@example.com"));
                    }
                    try (Task t = Task.open("t-held", Duration.ofSeconds(30))) {
                        tools.notifyCustomer("bob@example.com", "your parcel left");
                    } catch (Exception e) {
                        System.out.println("RESULT held " + e.getClass().getSimpleName());
                    }
                    try (Task t = Task.open("t-refund", "alice", Duration.ofSeconds(30))) {
                        System.out.println("RESULT refund " + refunds.refund("ord-7", 25));
                    } catch (Exception e) {
                        System.out.println("RESULT refund " + e.getClass().getSimpleName());
                    }
                    System.out.println("RESULT ready yes");
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
