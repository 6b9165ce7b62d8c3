package dev.effectful.agent.e2e;

import dev.effectful.agent.e2e.apps.DeskApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console in a real headless Chromium, against a real writer JVM with the agent: a MONEY call
 * without a probe is cut by kill -9 after its effect landed; the person sees it under "Needs a
 * person" within 2 s, marks it applied with a note and a result, and the restarted writer's next call
 * of that intent returns that result without running the body. Skipped, saying so, where Debian's
 * chromium and chromium-driver are not installed.
 */
class ConsoleBrowserIT {

    /** Shown as text, never run: the test fails if an alert opens. */
    private static final String XSS_ORDER = "<img/src=x/onerror=alert(1)>";
    private static final String CARD = "4242-SECRET-CARD-4242";

    @TempDir
    Path tmp;

    private WebDriver browser;
    private ControlFiles ctl;

    @BeforeEach
    void browser() {
        browser = Browsers.headless(tmp.resolve("chromium"));
    }

    @AfterEach
    void close() {
        if (browser != null) {
            browser.quit();
        }
    }

    private ForkedApp writer(Path journal, EffectLedger ledger, String name) throws Exception {
        return ForkedApp.jdk(Jdk.current()).main(DeskApp.class)
                .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                .sysprop("firstStep", ctl.step() + 1)
                .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                .start(tmp.resolve("logs-" + name));
    }

    /** Drops the next command for whichever writer runs now. */
    private String send(String command) throws Exception {
        return ctl.send(command);
    }

    private String await(ForkedApp app, String prefix) throws Exception {
        return ControlFiles.answer(app, prefix);
    }

    @Test
    void aCrashMidCallReachesThePersonAndTheirVerdictIsWhatTheNextCallReturns() throws Exception {
        Path journal = tmp.resolve("journal");
        ctl = ControlFiles.create(tmp.resolve("ctl"));
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp first = writer(journal, ledger, "first");
            try {
                send("charge " + XSS_ORDER + " " + CARD);
                waitFor(() -> ledger.effects("charge", XSS_ORDER) == 1, "the charge reached the ledger");
                try (ConsoleProcess console = ConsoleProcess.start(tmp.resolve("logs-console"), journal)) {
                    browser.get(console.url());
                    assertThat(browser.getCurrentUrl()).isEqualTo(console.base() + "/");
                    Browsers.waiting(browser, Duration.ofSeconds(30)).until(b -> !b.findElements(By.cssSelector("#running tr.intent")).isEmpty());
                    assertThat(browser.findElements(By.cssSelector("#held tr.intent"))).as("running, not held").isEmpty();

                    long killed = System.nanoTime();
                    first.kill9();
                    Browsers.waiting(browser, Duration.ofSeconds(2)).until(b -> !b.findElements(By.cssSelector("#held tr.intent")).isEmpty());
                    long shownMillis = (System.nanoTime() - killed) / 1_000_000;
                    WebElement row = browser.findElement(By.cssSelector("#held tr.intent"));
                    String key = row.getAttribute("data-key");
                    assertThat(row.getText()).contains("charge", "money", "t-desk", XSS_ORDER, "1");
                    assertThat(browser.getPageSource()).doesNotContain(CARD);
                    Browsers.noAlert(browser);
                    Browsers.screenshot(browser, "needs-a-person");

                    // the restarted writer: the verdict is handed to it live
                    ForkedApp second = writer(journal, ledger, "second");
                    try {
                        clickSteadily(By.cssSelector("#held a.key"));
                        Browsers.waiting(browser, Duration.ofSeconds(20)).until(b -> !b.findElements(By.id("applied-form")).isEmpty());
                        assertThat(browser.findElement(By.id("args")).getText()).contains(XSS_ORDER).doesNotContain(CARD);
                        assertThat(browser.getPageSource()).doesNotContain(CARD);
                        Browsers.noAlert(browser);
                        WebElement form = browser.findElement(By.id("applied-form"));
                        form.findElement(By.name("person")).sendKeys("Ann Lee");
                        form.findElement(By.name("result")).sendKeys("\"receipt-42\"");
                        form.findElement(By.name("note")).sendKeys("the bank shows the charge");
                        Browsers.screenshot(browser, "act");
                        form.findElement(By.id("it-applied")).click();
                        Browsers.waiting(browser, Duration.ofSeconds(60)).until(b -> !b.findElements(By.id("done-heading")).isEmpty());
                        assertThat(browser.findElement(By.id("done-heading")).getText()).isEqualTo("Recorded");
                        assertThat(browser.findElement(By.id("done-lines")).getText())
                                .contains("resolved " + key, "recorded by the running writer (pid " + second.pid() + ")");

                        assertThat(await(second, send("charge " + XSS_ORDER + " " + CARD)))
                                .as("the person's result, body not run").isEqualTo("receipt-42");
                        assertThat(ledger.effects("charge", XSS_ORDER)).isEqualTo(1);

                        browser.get(console.base() + "/intent/" + key);
                        // a page without a form reloads itself when the journal moves (the writer still writes)
                        assertThat(textSteadily(By.id("state"))).isEqualTo("resolved-yes");
                        assertThat(browser.findElements(By.id("applied-form"))).as("nothing left to decide").isEmpty();
                        browser.get(console.base() + "/");
                        assertThat(browser.findElements(By.cssSelector("#held tr.intent"))).isEmpty();
                        assertThat(browser.getPageSource()).doesNotContain(CARD);
                        System.out.println("console: held intent shown " + shownMillis + " ms after kill -9");
                    } finally {
                        second.kill9();
                    }
                }
            } finally {
                try {
                    first.kill9();
                } catch (AssertionError alreadyGone) {
                    // killed above
                }
            }
        }
    }

    @Test
    void anApprovalGivenInThePageLetsTheRephrasedRetryRunOnceAndADenialIsFinal() throws Exception {
        Path journal = tmp.resolve("journal");
        ctl = ControlFiles.create(tmp.resolve("ctl"));
        try (EffectLedger ledger = new EffectLedger()) {
            ForkedApp app = ForkedApp.jdk(Jdk.current()).main(dev.effectful.agent.e2e.apps.ApprovalApp.class)
                    .sysprop("effectful.journal.dir", journal).sysprop("ledger", ledger.url()).sysprop("ctl", ctl.dir())
                    .env("HOME", tmp.resolve("home").toString()).sysprop("user.home", tmp.resolve("home"))
                    .start(tmp.resolve("logs-approvals"));
            try {
                String first = await(app, send("charge o-1 please charge the order"));
                assertThat(first).startsWith("THROWN").contains("\"outcome\":\"retryable\"", "\"effect_applied\":\"no\"",
                        "approve");
                try (ConsoleProcess console = ConsoleProcess.start(tmp.resolve("logs-console"), journal)) {
                    browser.get(console.url());
                    Browsers.waiting(browser, Duration.ofSeconds(30))
                            .until(b -> !b.findElements(By.cssSelector("#pending tr.intent")).isEmpty());
                    assertThat(textSteadily(By.id("pending"))).contains("charge", "o-1", "alice");
                    assertThat(browser.getPageSource()).doesNotContain(dev.effectful.agent.e2e.apps.ApprovalApp.CARD);
                    Browsers.screenshot(browser, "approvals");
                    decide("#pending a.key", "approve", "Ann Lee", "customer confirmed by phone");
                    assertThat(ledger.effects("charge", "o-1")).as("approving runs nothing by itself").isZero();

                    String ran = await(app, send("charge o-1 go ahead and charge it, rephrased"));
                    assertThat(ran).doesNotStartWith("THROWN");
                    assertThat(ledger.effects("charge", "o-1")).isEqualTo(1);
                    assertThat(await(app, send("charge o-1 a third wording of the same charge"))).isEqualTo(ran);
                    assertThat(ledger.effects("charge", "o-1")).as("the stored result, body not run").isEqualTo(1);

                    assertThat(await(app, send("charge o-2 charge the second order"))).contains("\"outcome\":\"retryable\"");
                    browser.get(console.base() + "/");
                    Browsers.waiting(browser, Duration.ofSeconds(20))
                            .until(b -> b.findElements(By.cssSelector("#pending tr.intent")).size() == 1);
                    decide("#pending a.key", "deny", null, "not for this customer");
                    String denied = await(app, send("charge o-2 please, charge it after all"));
                    assertThat(denied).startsWith("THROWN").contains("\"outcome\":\"permanent\"", "not for this customer");
                    assertThat(ledger.effects("charge", "o-2")).isZero();
                    browser.get(console.base() + "/");
                    assertThat(browser.findElements(By.cssSelector("#pending tr.intent"))).isEmpty();
                    assertThat(browser.getPageSource()).doesNotContain(dev.effectful.agent.e2e.apps.ApprovalApp.CARD);
                }
            } finally {
                app.kill9();
            }
        }
    }

    /** A list reloads itself when the journal moves (a writer starting is enough): click what is there then. */
    private void clickSteadily(By what) {
        // a page that reloads itself may replace the element between finding and using it: Chromium says so as a
        // stale element or as a node that no longer belongs to the document; either way, look again (bounded)
        Browsers.waiting(browser, Duration.ofSeconds(20)).ignoring(org.openqa.selenium.WebDriverException.class)
                .until(b -> {
                    b.findElement(what).click();
                    return true;
                });
    }

    /** The text of an element on a page that may reload itself meanwhile. */
    private String textSteadily(By what) {
        // as in clickSteadily: a stale element or a node gone from the document is looked up again
        return Browsers.waiting(browser, Duration.ofSeconds(20))
                .ignoring(org.openqa.selenium.WebDriverException.class)
                .until(b -> b.findElement(what).getText());
    }

    /** Opens the first row's intent and submits approve or deny with a note (the name only the first time). */
    private void decide(String link, String button, String person, String note) {
        clickSteadily(By.cssSelector(link));
        Browsers.waiting(browser, Duration.ofSeconds(20)).until(b -> !b.findElements(By.id(button + "-form")).isEmpty());
        WebElement form = browser.findElement(By.id(button + "-form"));
        if (person != null) {
            form.findElement(By.name("person")).sendKeys(person);
        }
        form.findElement(By.name("note")).sendKeys(note);
        form.findElement(By.id(button)).click();
        Browsers.waiting(browser, Duration.ofSeconds(60)).until(b -> !b.findElements(By.id("done-heading")).isEmpty());
        assertThat(browser.findElement(By.id("done-heading")).getText())
                .as(browser.findElement(By.id("done-lines")).getText()).isEqualTo("Recorded");
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within 60 s: " + what);
            }
            Thread.sleep(20);
        }
    }
}
