package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.EffectKind;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.runtime.classify.Classifier;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.Fingerprinter;
import dev.effectful.core.values.ParamSpec;
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
        assertThat(new dev.effectful.core.values.ArgsRenderer(fp).render(new Object[] {"ann", "tok-12345"},
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

    // --- no side door: every form a redacted value can be written in, every link of a cause graph ---

    private static String printed(Throwable t) {
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    @Test
    void suppressedExceptionsAreCheckedAndCopiedRedacted() {
        Redactor r = of("ann", "tok-12345");
        IllegalStateException t = new IllegalStateException("upload failed");
        t.addSuppressed(new java.io.IOException("closing stream for tok-12345"));
        Throwable copy = r.throwable(t);
        assertThat(copy).isNotSameAs(t);
        assertThat(printed(copy)).doesNotContain("tok-12345").contains("java.lang.IllegalStateException: upload failed")
                .contains("Suppressed: java.io.IOException: closing stream for " + fp.fingerprint("tok-12345"));
    }

    static final class TokenRejected extends RuntimeException {
        private final String token;

        TokenRejected(String token) {
            super("rejected");
            this.token = token;
        }

        @Override
        public String toString() {
            return "TokenRejected[token=" + token + "]";
        }
    }

    @Test
    void aToStringThatQuotesASecretIsCaughtThoughTheMessageDoesNot() {
        Redactor r = of("ann", "tok-12345");
        Throwable copy = r.throwable(new RuntimeException("wrapped", new TokenRejected("tok-12345")));
        assertThat(printed(copy)).doesNotContain("tok-12345").contains("Caused by: TokenRejected[token=hmac:");
    }

    @Test
    void aSecretAtAnyDepthOfTheChainIsFoundAndACycleEnds() {
        Redactor r = of("ann", "tok-12345");
        Throwable deep = new IllegalArgumentException("bad tok-12345");
        for (int i = 0; i < 40; i++) {
            deep = new RuntimeException("level " + i, deep);
        }
        Throwable copy = r.throwable(deep);
        assertThat(printed(copy)).doesNotContain("tok-12345").contains("level 39").contains("bad hmac:");
        // A -> B -> A: checked once each, copied as the same cycle
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b tok-12345", a);
        a.initCause(b);
        Throwable c = r.throwable(a);
        assertThat(c.getCause().getCause()).isSameAs(c);
        assertThat(printed(c)).doesNotContain("tok-12345").contains("CIRCULAR REFERENCE");
        RuntimeException clean = new RuntimeException("x", new RuntimeException("y"));
        clean.getCause().initCause(clean);
        assertThat(r.throwable(clean)).isSameAs(clean);
    }

    @Test
    void aGraphTooLargeToCheckIsCutNotHandedOut() {
        Redactor r = of("ann", "tok-12345");
        Throwable deep = new IllegalArgumentException("bad tok-12345");
        for (int i = 0; i < Redactor.MAX_LINKS + 10; i++) {
            deep = new RuntimeException("level " + i, deep);
        }
        Throwable copy = r.throwable(deep);
        assertThat(copy).isNotSameAs(deep);
        assertThat(printed(copy)).doesNotContain("tok-12345").contains("further causes not shown");
    }

    record Creds(String user, String token, boolean admin) {
    }

    /** A bean: no record, its properties are what its getters show. */
    public static final class ApiKey {
        public String getId() {
            return "key-id-77";
        }

        public byte[] getSecret() {
            return "bean-secret-bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "ApiKey(***)";
        }
    }

    @Test
    void recordComponentsAndBeanPropertiesAreSecretsToo() {
        Redactor r = of("ann", new Creds("ann-admin", "tok-12345", true));
        assertThat(r.text("token tok-12345 of ann-admin expired")).doesNotContain("tok-12345", "ann-admin")
                .contains(fp.fingerprint("tok-12345"));
        assertThat(r.text("admin: true")).as("a boolean component is not a secret").isEqualTo("admin: true");
        Redactor bean = of("ann", new ApiKey());
        assertThat(bean.text("key key-id-77 with bean-secret-bytes")).doesNotContain("key-id-77", "bean-secret-bytes");
        // nested: a list of records
        Redactor nested = of("ann", List.of(new Creds("bob-user", "nested-tok-1", false)));
        assertThat(nested.text("nested-tok-1")).doesNotContain("nested-tok-1");
    }

    @Test
    void bytesAreFoundAsTextBase64AtEveryAlignmentAndHex() {
        byte[] key = "k3y-bytes-0123456789".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (Object secret : List.of(key, java.nio.ByteBuffer.wrap(key), "k3y-bytes-0123456789",
                "k3y-bytes-0123456789".toCharArray())) {
            Redactor r = of("ann", secret);
            java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
            for (int offset = 0; offset < 3; offset++) {
                for (int tail = 0; tail < 3; tail++) {
                    byte[] around = new byte[offset + key.length + tail];
                    java.util.Arrays.fill(around, (byte) '!');
                    System.arraycopy(key, 0, around, offset, key.length);
                    for (String encoded : List.of(b64.encodeToString(around),
                            java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(around))) {
                        String out = r.text("result " + encoded + " end");
                        // no 6 characters of the secret's own encoding are left
                        assertThat(out).as("%s offset %d tail %d", secret.getClass(), offset, tail)
                                .contains("hmac:").doesNotContain(core(encoded, offset, key.length));
                    }
                }
            }
            String hex = java.util.HexFormat.of().formatHex(key);
            assertThat(r.text("hex " + hex + " HEX " + hex.toUpperCase())).doesNotContain(hex, hex.toUpperCase());
            assertThat(r.text("plain k3y-bytes-0123456789")).doesNotContain("k3y-bytes");
            // and in Jackson's rendering of a byte[] result, which a repeat would hand back
            String stored = r.result("\"" + b64.encodeToString(key) + "\"");
            assertThat(Redactor.heldSecret(stored)).isTrue();
        }
    }

    /** The characters of a Base64 text that depend only on the secret's bytes at {@code offset}. */
    private static String core(String encoded, int offset, int length) {
        return encoded.substring((8 * offset + 5) / 6, 8 * (offset + length) / 6);
    }

    @Test
    void aTruncatedHeadKeepsNoStartOfASecret() {
        Redactor r = of("ann", "tok-12345-abcdef");
        assertThat(r.head("x".repeat(190) + "tok-12345-")).isEqualTo("x".repeat(190));
        assertThat(r.head("a tok-12345-abcdef b")).isEqualTo("a " + fp.fingerprint("tok-12345-abcdef") + " b");
        assertThat(r.head("nothing")).isEqualTo("nothing");
        String args = "{\"doc\":{\"$truncated\":70000,\"sha256\":\"00\",\"head\":\"" + "x".repeat(190) + "tok-123\"}}";
        assertThat(r.json(args)).doesNotContain("tok-1").contains("\"head\":\"" + "x".repeat(190) + "\"");
    }

    @Test
    void aSecretWithControlCharactersIsFoundInJacksonsRendering() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper jackson = dev.effectful.core.json.JsonMappers.shared();
        for (String secret : List.of("pass\bword-1", "form\ffeed-2", "unit\u001fsep-3", "ctl\u0001x-4", "line\u2028sep-5",
                "smile\uD83D\uDE00-6", "quote\"back\\slash-7", "tab\tnl\ncr\r-8")) {
            Redactor r = of("ann", secret);
            String body = jackson.writeValueAsString(java.util.Map.of("token", secret));
            String message = "HTTP 401: " + body;
            assertThat(r.text(message)).as("%s in %s", secret, body).doesNotContain(body.substring(10, body.length() - 2))
                    .contains(fp.fingerprint(secret));
        }
    }

    @Test
    void aValueOverTheEncodingLimitIsStillFoundAsText() {
        String big = "doc-" + "z".repeat(Redactor.MAX_ENCODED_BYTES + 10);
        Redactor r = of("ann", big);
        assertThat(r.text("quoted " + big + " here")).isEqualTo("quoted " + fp.fingerprint(big) + " here");
    }
}
