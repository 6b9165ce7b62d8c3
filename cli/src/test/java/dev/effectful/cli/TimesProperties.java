package dev.effectful.cli;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The listings' times are written by hand, not by {@link DateTimeFormatter} or {@code String.format} (one per
 * row of a listing that can hold hundreds of thousands): they must read exactly as the formatter's pattern
 * would, in every zone the JVM knows, across offsets that change with the season.
 */
@AddLifecycleHook(ScaledTries.class)
class TimesProperties {

    private static final DateTimeFormatter HUMAN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS xxx");

    @Property(tries = 3000)
    void humanReadsAsThePatternWould(@ForAll @LongRange(min = 1, max = 253_402_300_799_999L) long epochMillis,
                                     @ForAll("zones") ZoneId zone) {
        assertThat(Times.human(epochMillis, zone)).isEqualTo(HUMAN.format(Instant.ofEpochMilli(epochMillis).atZone(zone)));
    }

    @Property(tries = 2000)
    void durationReadsAsTheFormatWould(@ForAll @LongRange(min = 60_000, max = 400L * 86_400_000) long millis) {
        long s = millis / 1000;
        String expected = s < 3600 ? String.format("%d m %02d s", s / 60, s % 60)
                : s < 86_400 ? String.format("%d h %02d m", s / 3600, (s % 3600) / 60)
                : String.format("%d d %02d h", s / 86_400, (s % 86_400) / 3600);
        assertThat(Times.duration(millis)).isEqualTo(expected);
    }

    @Example
    void theShapesAnOperatorReads() {
        assertThat(Times.human(1_764_526_262_123L, ZoneId.of("Europe/Paris"))).isEqualTo("2025-11-30 19:11:02.123 +01:00");
        assertThat(Times.human(1_751_000_000_007L, ZoneId.of("America/St_Johns"))).isEqualTo("2025-06-27 02:23:20.007 -02:30");
        assertThat(Times.duration(185_000)).isEqualTo("3 m 05 s");
        assertThat(Times.duration(7_380_000)).isEqualTo("2 h 03 m");
        assertThat(Times.duration(352_800_000)).isEqualTo("4 d 02 h");
    }

    @Provide
    Arbitrary<ZoneId> zones() {
        return Arbitraries.of(ZoneId.getAvailableZoneIds()).map(ZoneId::of);
    }
}
