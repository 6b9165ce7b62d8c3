package dev.effectful.agent.e2e;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Debian's headless Chromium driven through its own chromedriver (nothing downloaded), or the test is
 * skipped with a message naming the packages.
 */
public final class Browsers {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Browsers() {
    }

    /** A headless browser with a fresh profile under {@code profile}; skips the test where none is installed. */
    public static WebDriver headless(Path profile) {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "browser tests skipped: /usr/bin/chromium and /usr/bin/chromedriver are missing"
                        + " (apt-get install chromium chromium-driver; .ci/run installs them when root)");
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        // the flags that keep Chromium off the network on a closed machine, as the machine's notes say
        o.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        WebDriver browser = new ChromeDriver(service, o);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return browser;
    }

    /** A bounded wait that polls often and shows the page when it gives up. */
    public static WebDriverWait waiting(WebDriver browser, Duration d) {
        WebDriverWait w = new WebDriverWait(browser, d);
        w.pollingEvery(Duration.ofMillis(50));
        w.withMessage(() -> "the page was:\n" + browser.getPageSource());
        return w;
    }

    /** Fails if a script opened an alert (what an injected {@code onerror=alert(1)} would do). */
    public static void noAlert(WebDriver browser) {
        assertThatThrownBy(() -> browser.switchTo().alert()).as("a script from the journal ran")
                .isInstanceOf(NoAlertPresentException.class);
    }

    /** Saves what the browser shows as {@code NAME.png} (the README's screenshots come from here). */
    public static void screenshot(WebDriver browser, String name) throws IOException {
        Path dir = Path.of(System.getProperty("effectful.screenshots", "target/console-screenshots"));
        Files.createDirectories(dir);
        Files.write(dir.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }
}
