package dev.effectful.core.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.function.Function;

/**
 * {@code java.time} as ISO-8601 text, standing in for jackson-datatype-jsr310, which the runtime
 * does not ship. Without it Jackson refuses every {@code java.time} value, and a tool taking an
 * {@code Instant} would fail to journal.
 *
 * <p>Every {@code java.time} value is written with its {@code toString()} (ISO-8601 for all the
 * standard types); the common concrete types also read back with their {@code parse}, which
 * round-trips exactly (a ZonedDateTime keeps its region).
 */
final class IsoTimeModule extends SimpleModule {

    private static final long serialVersionUID = 1L;

    IsoTimeModule() {
        super("effectful-iso-time");
        // Interfaces match every implementation, including chronologies and ZoneRegion.
        addSerializer(TemporalAccessor.class, ToStringSerializer.instance);
        addSerializer(TemporalAmount.class, ToStringSerializer.instance);
        addSerializer(ZoneId.class, ToStringSerializer.instance);

        reads(Instant.class, Instant::parse);
        reads(LocalDate.class, LocalDate::parse);
        reads(LocalDateTime.class, LocalDateTime::parse);
        reads(LocalTime.class, LocalTime::parse);
        reads(OffsetDateTime.class, OffsetDateTime::parse);
        reads(OffsetTime.class, OffsetTime::parse);
        reads(ZonedDateTime.class, ZonedDateTime::parse);
        reads(Year.class, Year::parse);
        reads(YearMonth.class, YearMonth::parse);
        reads(MonthDay.class, MonthDay::parse);
        reads(Duration.class, Duration::parse);
        reads(Period.class, Period::parse);
        reads(ZoneId.class, ZoneId::of);
        reads(ZoneOffset.class, ZoneOffset::of);
    }

    private <T> void reads(Class<T> type, Function<String, T> parse) {
        addDeserializer(type, new IsoDeserializer<>(type, parse));
    }

    private static final class IsoDeserializer<T> extends StdScalarDeserializer<T> {

        private static final long serialVersionUID = 1L;
        private final transient Function<String, T> parse;

        IsoDeserializer(Class<T> type, Function<String, T> parse) {
            super(type);
            this.parse = parse;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                return (T) ctxt.handleUnexpectedToken(handledType(), p);
            }
            String text = p.getText();
            try {
                return parse.apply(text.trim());
            } catch (DateTimeException e) {
                return (T) ctxt.handleWeirdStringValue(handledType(), text, "not ISO-8601: %s", e.getMessage());
            }
        }
    }
}
