package dev.effectful.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.Status;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClientResponseException;

/** Precedence: per-tool overrides > properties file > defaults. */
class OverridesTest {

    @TempDir
    Path dir;

    private Classifier fromFile(String... lines) throws IOException {
        Path file = dir.resolve("classifier.properties");
        Files.write(file, List.of(lines));
        return Classifier.withOverridesFrom(file);
    }

    private static ToolOverrides permanentOn(Class<? extends Throwable> type) {
        return new ToolOverrides(List.of(type), List.of());
    }

    private static ToolOverrides retryableOn(Class<? extends Throwable> type) {
        return new ToolOverrides(List.of(), List.of(type));
    }

    @Test
    void aToolOverrideBeatsTheDefaultsAndMatchesSubclasses() {
        Classification c = Classifier.defaults().classify(new CardDeclined("card declined"), EffectKind.MONEY,
                permanentOn(PaymentRejected.class));
        assertThat(c.status()).isEqualTo(Status.PERMANENT);
        assertThat(c.effect()).isEqualTo(EffectApplied.NO);
        assertThat(c.message()).isEqualTo("CardDeclined: card declined");

        Classification r = Classifier.defaults().classify(new IllegalArgumentException("busy"), EffectKind.SEND,
                retryableOn(IllegalArgumentException.class));
        assertThat(r.status()).isEqualTo(Status.RETRYABLE);
        assertThat(r.message()).as("named like the default row would").isEqualTo("invalid argument: busy");
    }

    @Test
    void aToolOverrideOnAnInnerCauseBeatsADefaultOnItsWrapper() {
        Throwable thrown = new IllegalArgumentException("wrapped", new CardDeclined("declined"));
        assertThat(Classifier.defaults().classify(thrown, EffectKind.MONEY, retryableOn(CardDeclined.class)).status())
                .isEqualTo(Status.RETRYABLE);
    }

    @Test
    void aToolOverrideBeatsTheFile() throws IOException {
        Classifier c = fromFile(CardDeclined.class.getName() + " = unknown");
        assertThat(c.classify(new CardDeclined("x"), EffectKind.MONEY, ToolOverrides.NONE).status()).isEqualTo(Status.UNKNOWN);
        assertThat(c.classify(new CardDeclined("x"), EffectKind.MONEY, permanentOn(CardDeclined.class)).status())
                .isEqualTo(Status.PERMANENT);
    }

    @Test
    void overridesAreReadFromTheAnnotation() throws NoSuchMethodException {
        EffectfulTool tool = Tools.class.getDeclaredMethod("charge").getAnnotation(EffectfulTool.class);
        ToolOverrides o = ToolOverrides.of(tool);
        assertThat(o.permanentOn()).containsExactly(PaymentRejected.class);
        assertThat(o.retryableOn()).containsExactly(IllegalStateException.class);
        assertThat(ToolOverrides.of(null)).isSameAs(ToolOverrides.NONE);
    }

    @Test
    void theFileBeatsTheDefaultsByClassNameAndSuperclassName() throws IOException {
        Classifier c = fromFile(
                "# operator's rules",
                "",
                "java.net.ConnectException = permanent   # our proxy refuses for good",
                "dev.effectful.runtime.classify.OverridesTest$PaymentRejected = retryable/no",
                "java.lang.IllegalStateException = unknown/partial");
        Classification refused = c.classify(new ExecutionException(new ConnectException("refused")), EffectKind.SEND, null);
        assertThat(refused.status()).isEqualTo(Status.PERMANENT);
        assertThat(refused.effect()).isEqualTo(EffectApplied.NO);
        assertThat(refused.message()).isEqualTo("connection refused: refused");

        Classification sub = c.classify(new CardDeclined("declined"), EffectKind.MONEY, null);
        assertThat(sub.status()).isEqualTo(Status.RETRYABLE);
        assertThat(sub.effect()).isEqualTo(EffectApplied.NO);

        Classification partial = c.classify(new IllegalStateException("half"), EffectKind.SEND, null);
        assertThat(partial.status()).isEqualTo(Status.UNKNOWN);
        assertThat(partial.effect()).isEqualTo(EffectApplied.PARTIAL);

        // untouched rows keep their defaults
        assertThat(c.classify(new IllegalArgumentException(), EffectKind.SEND, null).status()).isEqualTo(Status.PERMANENT);
    }

    @Test
    void theFileOverridesHttpStatuses() throws IOException {
        Classifier c = fromFile("http.409 = retryable", "http.500 = permanent/unknown");
        RestClientResponseException conflict = new RestClientResponseException("409 Conflict", 409,
                HttpHeaders.readOnly(Map.of("Retry-After", "3")));
        Classification r = c.classify(conflict, EffectKind.CREATE, null);
        assertThat(r.status()).isEqualTo(Status.RETRYABLE);
        assertThat(r.effect()).isEqualTo(EffectApplied.NO);
        assertThat(r.retryAfterS()).isEqualTo(3L);
        assertThat(r.message()).isEqualTo("HTTP 409 from the service: 409 Conflict");

        Classification p = c.classify(new RestClientResponseException("boom", 500, new HttpHeaders()), EffectKind.CREATE, null);
        assertThat(p.status()).isEqualTo(Status.PERMANENT);
        assertThat(p.effect()).isEqualTo(EffectApplied.UNKNOWN);
    }

    @Test
    void effectDefaultsFollowTheOutcome() {
        OverridesFile f = OverridesFile.parse(List.of("http.400=retryable", "http.401=permanent", "http.402 = UNKNOWN"), "t");
        assertThat(f.forStatus(400)).contains(new OverridesFile.Verdict(Status.RETRYABLE, EffectApplied.NO));
        assertThat(f.forStatus(401)).contains(new OverridesFile.Verdict(Status.PERMANENT, EffectApplied.NO));
        assertThat(f.forStatus(402)).contains(new OverridesFile.Verdict(Status.UNKNOWN, EffectApplied.UNKNOWN));
    }

    @Test
    void aBadLineNamesTheFileAndTheLine() throws IOException {
        Path file = dir.resolve("bad.properties");
        Files.write(file, List.of("# fine", "java.io.IOException = retryable", "java.net.ConnectException = ok"));
        assertThatThrownBy(() -> Classifier.withOverridesFrom(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("line 3")
                .hasMessageContaining("'ok'");
    }

    @Test
    void everyKindOfBadLineIsRefused() {
        for (String bad : List.of("java.io.IOException", "java.io.IOException = sometimes", "java.io.IOException = retryable/maybe",
                "http.5xx = retryable", "http.700 = retryable", "IOException = retryable", "java.io.IO Exception = permanent",
                " = permanent")) {
            assertThatThrownBy(() -> OverridesFile.parse(List.of(bad), "f.properties"))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("f.properties line 1");
        }
    }

    @Test
    void aKeySetTwiceIsRefused() {
        assertThatThrownBy(() -> OverridesFile.parse(List.of("http.500 = unknown", "", "http.500 = retryable"), "f"))
                .hasMessageContaining("line 3").hasMessageContaining("line 1");
    }

    @Test
    void aMissingFileIsAnIoError() {
        assertThatThrownBy(() -> Classifier.withOverridesFrom(dir.resolve("absent.properties")))
                .isInstanceOf(NoSuchFileException.class);
    }

    static class PaymentRejected extends RuntimeException {
        PaymentRejected(String message) {
            super(message);
        }
    }

    static final class CardDeclined extends PaymentRejected {
        CardDeclined(String message) {
            super(message);
        }
    }

    static final class Tools {
        @EffectfulTool(kind = EffectKind.MONEY, permanentOn = PaymentRejected.class, retryableOn = IllegalStateException.class)
        void charge() {
        }
    }
}
