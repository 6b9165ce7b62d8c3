package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.runtime.journal.JournalRecord;
import dev.effectful.runtime.journal.RecordType;
import dev.effectful.runtime.keys.Fingerprinter;
import dev.effectful.runtime.values.ParamSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code @Redact} rule applied to texts: what is looked for, what replaces it, what is left alone. */
class RedactorTest {

    private static final ParamSpec PLAIN = new ParamSpec("user", true, false, false);
    private static final ParamSpec SECRET = new ParamSpec("token", false, false, true);

    @TempDir
    Path dir;
    Fingerprinter fp;

    @BeforeEach
    void key() throws Exception {
        fp = Fingerprinter.forJournal(dir);
    }

    private Redactor of(Object... args) {
        ParamSpec[] specs = new ParamSpec[args.length];
        specs[0] = PLAIN;
        for (int i = 1; i < args.length; i++) {
            specs[i] = SECRET;
        }
        return Redactor.of(fp, args, specs);
    }

    @Test
    void toolsWithoutRedactedArgumentsGetNone() {
        assertThat(Redactor.of(fp, new Object[] {"ann", "x"}, new ParamSpec[] {PLAIN, PLAIN})).isSameAs(Redactor.NONE);
        assertThat(of("ann", (Object) null)).isSameAs(Redactor.NONE);
        String text = "nothing to see";
        assertThat(Redactor.NONE.text(text)).isSameAs(text);
    }

    @Test
    void replacesEachOccurrenceWithTheArgsFingerprint() {
        Redactor r = of("ann", "tok-12345");
        String f = fp.fingerprint("tok-12345");
        assertThat(r.text("token tok-12345 rejected; tok-12345 again")).isEqualTo("token " + f + " rejected; " + f + " again");
        String clean = "no secret here";
        assertThat(r.text(clean)).isSameAs(clean);
        // the fingerprint is the one the journal's args already show
        assertThat(new dev.effectful.runtime.values.ArgsRenderer(fp).render(new Object[] {"ann", "tok-12345"},
                new ParamSpec[] {PLAIN, SECRET})).contains(f);
    }

    @Test
    void collectionsArraysAndCharArraysAreSearchedElementByElement() {
        Redactor r = of("ann", List.of("alpha-1", "beta-2"), new String[] {"gamma-3"}, "delta-4".toCharArray());
        String out = r.text("alpha-1 beta-2 gamma-3 delta-4");
        assertThat(out).doesNotContain("alpha-1", "beta-2", "gamma-3", "delta-4")
                .contains(fp.fingerprint("alpha-1"), fp.fingerprint("gamma-3"));
    }

    @Test
    void veryShortValuesAreNotSearchedButThreeCharactersAre() {
        assertThat(of("ann", "42")).isSameAs(Redactor.NONE);
        assertThat(of("ann", 1234).text("pin 1234 wrong")).doesNotContain("1234");
        assertThat(of("ann", "123").text("cvv 123 wrong")).doesNotContain("123 wrong");
    }

    @Test
    void anExistingFingerprintIsNeverRewritten() {
        // "abc" occurs in plenty of hex; a fingerprint already in the text stays whole
        Redactor r = of("ann", "abc");
        String f = fp.fingerprint("abc");
        String twice = r.text(r.text("abc then abc"));
        assertThat(twice).isEqualTo(f + " then " + f);
    }

    @Test
    void escapedAndCollapsedFormsAreFoundToo() {
        Redactor r = of("ann", "se\"cr\net");
        assertThat(r.text("{\"token\":\"se\\\"cr\\net\"}")).doesNotContain("se\\\"cr");
        assertThat(r.text("line: se\"cr et")).doesNotContain("se\"cr et");
    }

    @Test
    void jsonStaysValidAndAResultHoldingASecretIsMarked() {
        Redactor r = of("ann", "tok-12345");
        String f = fp.fingerprint("tok-12345");
        assertThat(r.json("{\"tok-12345\":[\"a tok-12345 b\",1]}")).isEqualTo("{\"" + f + "\":[\"a " + f + " b\",1]}");
        String stored = r.result("\"session for tok-12345\"");
        assertThat(stored).isEqualTo("{\"$redacted\":\"session for " + f + "\"}");
        assertThat(Redactor.heldSecret(stored)).isTrue();
        String clean = "\"session\"";
        assertThat(r.result(clean)).isSameAs(clean);
        assertThat(Redactor.heldSecret(clean)).isFalse();
    }

    @Test
    void recordFieldsAreRedacted() {
        Redactor r = of("ann", "tok-12345");
        JournalRecord rec = JournalRecord.of(RecordType.OUTCOME).message("bad tok-12345").result("\"tok-12345\"")
                .args("{\"note\":\"tok-12345\"}").finishWith(r::record).build();
        assertThat(rec.message() + rec.result() + rec.args()).doesNotContain("tok-12345");
        assertThat(Redactor.heldSecret(rec.result())).isTrue();
    }

    @Test
    void outcomeMessageAndItemReasonsAreRedactedTheValueIsNot() {
        Redactor r = of("ann", "tok-12345");
        Outcome<String> o = new Outcome<>(Status.PERMANENT, EffectApplied.NO, null, null, null, null, "bad tok-12345",
                "tok-12345", List.of(Outcome.Item.rejected("row", "tok-12345 refused")));
        Outcome<String> out = r.outcome(o);
        assertThat(out.toJson()).doesNotContain("tok-12345");
        assertThat(out.value()).isEqualTo("tok-12345");
    }

    @Test
    void causeChainIsCopiedWithRedactedMessagesAndOriginalClassNames() {
        Redactor r = of("ann", "tok-12345");
        Throwable t = new UncheckedIOException("push tok-12345", new ConnectException("refused ?t=tok-12345"));
        Throwable copy = r.throwable(t);
        StringWriter trace = new StringWriter();
        copy.printStackTrace(new PrintWriter(trace));
        assertThat(trace.toString()).doesNotContain("tok-12345").contains("java.io.UncheckedIOException: push hmac:")
                .contains("Caused by: java.net.ConnectException: refused ?t=hmac:");
        assertThat(copy.getStackTrace()).isEqualTo(t.getStackTrace());
        Throwable clean = new IllegalStateException("nothing secret");
        assertThat(r.throwable(clean)).isSameAs(clean);
    }

    @Test
    void classifierRedactsBeforeItCapsSoNoPrefixOfTheSecretSurvives() {
        String secret = "tok-" + "9".repeat(40);
        Redactor r = of("ann", secret);
        // the secret straddles the 300-character cap
        Throwable t = new IllegalArgumentException("x".repeat(260) + " " + secret);
        String capped = Classifier.defaults().classify(t, EffectKind.SEND, null).message();
        assertThat(capped).contains("tok-99");
        String redacted = Classifier.defaults().redacting(r).classify(t, EffectKind.SEND, null).message();
        assertThat(redacted).doesNotContain("tok-99");
        // and a secret split across lines is found before the message is made one line
        Throwable split = new IllegalArgumentException("a\n" + "tok-12345");
        assertThat(Classifier.defaults().redacting(of("ann", "tok-12345")).classify(split, EffectKind.SEND, null).message())
                .doesNotContain("tok-12345");
    }
}
