package dev.effectful.agent.fleet;

import dev.effectful.agent.e2e.Browsers;
import dev.effectful.agent.e2e.ConsoleProcess;
import dev.effectful.agent.e2e.ControlFiles;
import dev.effectful.agent.e2e.EffectLedger;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.apps.DeskApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One console for a fleet: two host JVMs, each with its own journal, share one PostgreSQL store; both
 * are killed mid-charge. The console started with {@code --store postgres} shows both held intents on
 * one page, with their hosts; the person settles one there, and the other host, taking that task up
 * after a restart, returns the person's result without charging again.
 */
class ConsoleFleetIT {

    @RegisterExtension
    static final SharedPostgres pg = new SharedPostgres();

    @TempDir
    Path tmp;

    /** A host: its own journal and control files. */
    private final class Host {
        final String name;
        final ControlFiles ctl;
        ForkedApp app;

        Host(String name) throws Exception {
            this.name = name;
            this.ctl = ControlFiles.create(tmp.resolve("ctl-" + name));
        }

        Host start(EffectLedger ledger, Path journal) throws Exception {
            app = ForkedApp.jdk(Jdk.current()).main(DeskApp.class)
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                    .sysprop("firstStep", ctl.step() + 1).sysprop("task", "t-fleet")
                    .sysprop("effectful.store", "postgres").sysprop("effectful.store.url", pg.server().url())
                    .sysprop("effectful.store.user", PostgresServer.USER)
                    .sysprop("effectful.store.password", PostgresServer.PASSWORD)
                    .sysprop("effectful.store.lease", "2s").sysprop("effectful.store.timeout", "5s")
                    .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                    .start(tmp.resolve("logs-" + name + "-" + ctl.step()));
            return this;
        }

        String send(String command) throws Exception {
            return ctl.send(command);
        }
    }

    @Test
    void twoHostsHeldIntentsOnOnePageAndAVerdictEveryHostHonours() throws Exception {
        Map<String, String> store = pg.server().storeEnv();
        WebDriver browser = Browsers.headless(tmp.resolve("chromium"));
        try (EffectLedger ledger = new EffectLedger()) {
            Host a = new Host("a").start(ledger, tmp.resolve("journal-a"));
            Host b = new Host("b").start(ledger, tmp.resolve("journal-b"));
            a.send("charge order-a 4242-CARD-A");
            b.send("charge order-b 4242-CARD-B");
            await(() -> ledger.effects("charge", "order-a") == 1 && ledger.effects("charge", "order-b") == 1);
            a.app.kill9();
            b.app.kill9();

            try (ConsoleProcess console = ConsoleProcess.start(store, tmp.resolve("logs-console"), tmp.resolve("journal-a"),
                    "--store", "postgres")) {
                browser.get(console.url());
                // both hosts' intents, once their leases lapsed (2 s): nobody is running them any more
                Browsers.waiting(browser, Duration.ofSeconds(30))
                        .until(d -> d.findElements(By.cssSelector("#held tr.intent")).size() == 2);
                String page = browser.findElement(By.id("held")).getText();
                assertThat(page).contains("charge", "t-fleet", "pid " + a.app.pid(), "pid " + b.app.pid());
                assertThat(browser.getPageSource()).doesNotContain("4242-CARD");

                WebElement rowB = browser.findElements(By.cssSelector("#held tr.intent")).stream()
                        .filter(r -> r.getText().contains("pid " + b.app.pid())).findFirst().orElseThrow();
                String keyB = rowB.getAttribute("data-key");
                rowB.findElement(By.cssSelector("a.key")).click();
                Browsers.waiting(browser, Duration.ofSeconds(20)).until(d -> !d.findElements(By.id("applied-form")).isEmpty());
                WebElement form = browser.findElement(By.id("applied-form"));
                form.findElement(By.name("person")).sendKeys("Ann Lee");
                form.findElement(By.name("result")).sendKeys("\"receipt-7\"");
                form.findElement(By.name("note")).sendKeys("the processor shows order-b charged");
                form.findElement(By.id("it-applied")).click();
                Browsers.waiting(browser, Duration.ofSeconds(60)).until(d -> !d.findElements(By.id("done-heading")).isEmpty());
                assertThat(browser.findElement(By.id("done-heading")).getText())
                        .as(browser.findElement(By.id("done-lines")).getText()).isEqualTo("Recorded");

                // host a takes task t-fleet up again and repeats order-b: the person's result, no second charge
                a.start(ledger, tmp.resolve("journal-a"));
                String prefix = a.send("charge order-b 4242-CARD-B");
                String answer = ControlFiles.answer(a.app, prefix);
                assertThat(answer).isEqualTo("receipt-7");
                assertThat(ledger.effects("charge", "order-b")).isEqualTo(1);

                browser.get(console.base() + "/");
                Browsers.waiting(browser, Duration.ofSeconds(10))
                        .until(d -> d.findElements(By.cssSelector("#held tr.intent")).size() == 1);
                assertThat(browser.findElement(By.id("held")).getText()).doesNotContain(keyB.substring(0, 12));
                a.app.kill9();
            }
        } finally {
            browser.quit();
        }
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 60 s");
            }
            Thread.sleep(20);
        }
    }
}
