package dev.effectful.core.journal;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal's cycle files are indexed every {@link QueueCycles#INDEX_SPACING} records, so a read by index
 * walks a few records at most; a cycle file begun with Chronicle's daily default (every 256th, as every journal
 * was before) keeps its own spacing when the writer of today appends to it, and every record of both kinds of
 * file reads back by its index, one at a time and in one ascending walk.
 */
class IndexSpacingTest {

    private static final Pattern SPACING = Pattern.compile("indexSpacing: (?:!\\w+ )?(\\d+)");
    private static final Pattern COUNT = Pattern.compile("indexCount: (?:!\\w+ )?(\\d+)");

    @TempDir
    Path tmp;

    private static JournalRecord intent(int i) {
        return JournalRecord.of(RecordType.INTENT).task("t" + i).call("send").kind(Kind.SEND).intentKey("k" + i)
                .attempt(1).attemptId("t" + i + "-k-a1").started(1_000L + i).args("{\"n\":" + i + "}").build();
    }

    @Test
    void aNewJournalIsIndexedEverySixteenRecords() throws Exception {
        Path dir = tmp.resolve("new");
        List<Long> at = new ArrayList<>();
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (int i = 0; i < 1000; i++) {
                at.add(j.append(intent(i)));
            }
            String dump = j.queue().dump();
            assertThat(found(SPACING, dump)).isEqualTo("16");
            assertThat(found(COUNT, dump)).isEqualTo("8192");
        }
        readsEveryOne(dir, at, 0);
    }

    @Test
    void aFileBegunWithTheOldSpacingKeepsItAndEveryRecordStillReads() throws Exception {
        Path dir = tmp.resolve("old");
        List<Long> at = new ArrayList<>();
        // a journal as written before: Chronicle's daily cycle with its own index settings
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).rollCycle(RollCycles.FAST_DAILY).build();
             ExcerptAppender appender = q.createAppender()) {
            for (int i = 0; i < 600; i++) {
                try (DocumentContext dc = appender.writingDocument()) {
                    RecordCodec.write(intent(i), dc.wire());
                }
                at.add(appender.lastIndexAppended());
            }
        }
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (int i = 600; i < 1000; i++) {
                at.add(j.append(intent(i)));
            }
            assertThat(found(SPACING, j.queue().dump())).isEqualTo(String.valueOf(RollCycles.FAST_DAILY.defaultIndexSpacing()));
        }
        readsEveryOne(dir, at, 0);
    }

    private static void readsEveryOne(Path dir, List<Long> at, int first) throws Exception {
        try (ChronicleJournal r = ChronicleJournal.openReader(dir)) {
            for (int i = 0; i < at.size(); i++) {
                assertThat(r.read(at.get(i))).as("record %d by its index", i).contains(intent(first + i));
            }
            // every third one, ascending: both the walk over short gaps and the jump over long ones
            long[] some = at.stream().filter(x -> x % 3 == 0).mapToLong(Long::longValue).toArray();
            List<Long> seen = new ArrayList<>();
            r.readAscending(some, (index, rec) -> {
                seen.add(index);
                assertThat(rec).isEqualTo(intent(first + at.indexOf(index)));
            });
            assertThat(seen).containsExactlyElementsOf(at.stream().filter(x -> x % 3 == 0).toList());
        }
    }

    private static String found(Pattern p, String dump) {
        Matcher m = p.matcher(dump);
        assertThat(m.find()).as("%s in the queue's dump", p).isTrue();
        return m.group(1);
    }
}
