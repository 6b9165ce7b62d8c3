package dev.effectful.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RetryAfterTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("1994-11-06T08:49:07Z"), ZoneOffset.UTC);

    @Test
    void delaySeconds() {
        assertThat(RetryAfter.seconds("30", CLOCK)).isEqualTo(30L);
        assertThat(RetryAfter.seconds(" 0 ", CLOCK)).isZero();
    }

    @Test
    void allThreeHttpDateForms() {
        assertThat(RetryAfter.seconds("Sun, 06 Nov 1994 08:49:37 GMT", CLOCK)).isEqualTo(30L);
        assertThat(RetryAfter.seconds("Sunday, 06-Nov-94 08:49:37 GMT", CLOCK)).isEqualTo(30L);
        assertThat(RetryAfter.seconds("Sun Nov  6 08:49:37 1994", CLOCK)).isEqualTo(30L);
    }

    @Test
    void neverNegativeAndNullWhenNotUnderstood() {
        assertThat(RetryAfter.seconds("Sun, 06 Nov 1994 07:00:00 GMT", CLOCK)).isZero();
        assertThat(RetryAfter.seconds("-5", CLOCK)).isNull();
        assertThat(RetryAfter.seconds("soon", CLOCK)).isNull();
        assertThat(RetryAfter.seconds("", CLOCK)).isNull();
        assertThat(RetryAfter.seconds(null, CLOCK)).isNull();
        assertThat(RetryAfter.seconds("99999999999999999999999", CLOCK)).isNull();
    }
}
