package dev.effectful.core.journal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The claim on an intent's verdict: one holder at a time (two in one process too), gone once its holder is
 * done, and a killed holder's leftover does not block the next verdict for ever.
 */
class VerdictClaimTest {

    private static final String KEY = "0123456789abcdef0123456789abcdef";

    @TempDir
    Path journal;

    @Test
    void oneHolderAtATimeAndNothingLeftOnceItIsDone() throws Exception {
        VerdictClaim.Attempt first = VerdictClaim.tryClaim(journal, KEY);
        assertThat(first).isInstanceOf(VerdictClaim.Claimed.class);
        VerdictClaim.Attempt second = VerdictClaim.tryClaim(journal, KEY);
        assertThat(second).isEqualTo(new VerdictClaim.Busy(Long.toString(ProcessHandle.current().pid())));

        ((VerdictClaim.Claimed) first).claim().close();
        try (var left = Files.list(ResolutionRequest.dir(journal))) {
            assertThat(left).isEmpty();
        }
        VerdictClaim.Attempt third = VerdictClaim.tryClaim(journal, KEY);
        assertThat(third).isInstanceOf(VerdictClaim.Claimed.class);
        ((VerdictClaim.Claimed) third).claim().close();
    }

    @Test
    void anEarlierHoldersCloseDoesNotRemoveALaterClaim() throws Exception {
        VerdictClaim earlier = ((VerdictClaim.Claimed) VerdictClaim.tryClaim(journal, KEY)).claim();
        earlier.close();
        VerdictClaim later = ((VerdictClaim.Claimed) VerdictClaim.tryClaim(journal, KEY)).claim();
        earlier.close(); // twice: must not take the later holder's claim with it
        assertThat(VerdictClaim.tryClaim(journal, KEY)).isInstanceOf(VerdictClaim.Busy.class);
        later.close();
    }

    @Test
    void aKilledHoldersClaimIsTakenOver() throws Exception {
        Process gone = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(gone.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Files.createDirectories(ResolutionRequest.dir(journal));
        Files.writeString(VerdictClaim.file(journal, KEY), gone.pid() + "\nleft-behind\n", StandardCharsets.US_ASCII);

        VerdictClaim.Attempt taken = VerdictClaim.tryClaim(journal, KEY);
        assertThat(taken).isInstanceOf(VerdictClaim.Claimed.class);
        ((VerdictClaim.Claimed) taken).claim().close();
        assertThat(VerdictClaim.file(journal, KEY)).doesNotExist();
    }
}
