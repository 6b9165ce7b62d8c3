package dev.effectful.agent.reliability;

import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.agent.e2e.ForkedApp;
import dev.effectful.agent.e2e.Jdk;
import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.agent.e2e.CliRun;
import dev.effectful.core.journal.CycleFileScan;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Journal faults: each fault has a defined behaviour, asserted here against a real
 * forked JVM with the real agent (see docs/RELIABILITY.md). Disk faults need root to mount a
 * small tmpfs or an ext4 loop device; without it those tests are skipped and say why.
 */
class JournalFaultIT {

    @TempDir
    Path tmp;

    private final List<Path> mounts = new ArrayList<>();

    @AfterEach
    void unmount() throws Exception {
        for (Path m : mounts) {
            sh("umount", "-l", m.toString());
        }
    }

    // ------------------------------------------------------------------ disk full

    @Test
    void aFullDiskRefusesEffectfulCallsLetsReadsGoOnAndServiceResumesWhenSpaceIsFreed() throws Exception {
        Path disk = mountTmpfs("32m");
        Path journal = disk.resolve("journal");
        ForkedApp app = faultApp(journal, "journal.reserve=8m").start(tmp.resolve("logs"));
        try {
            app.awaitLine(l -> l.startsWith("CALL 3 effectful ok"), Duration.ofSeconds(90));
            long free = Files.getFileStore(disk).getUsableSpace();
            Path ballast = disk.resolve("ballast");
            fill(ballast, free - (4L << 20)); // leaves 4 MiB: below the 8 MiB reserve, far from really full
            String refused = app.awaitLine(l -> l.contains(" effectful retryable") && l.contains("disk full"),
                    Duration.ofSeconds(30));
            assertThat(refused).contains("\"effect_applied\":\"no\"", "journal unavailable: disk full (",
                    "bytes free in " + journal);
            int n = callNumber(refused);
            app.awaitLine(l -> l.startsWith("CALL " + (n + 2) + " read ok"), Duration.ofSeconds(30));
            assertThat(lastBodies(app)).as("no effectful body ran while refused").isEqualTo(bodiesAt(app, n));

            Files.delete(ballast);
            String resumed = app.awaitLine(l -> l.startsWith("CALL ") && l.contains(" effectful ok")
                    && callNumber(l) > n, Duration.ofSeconds(30));
            assertThat(callNumber(resumed)).isGreaterThan(n);
        } finally {
            stop(app, journal);
        }
        assertThat(app.stderr()).contains("journal unavailable: disk full");
        JournalContents j = JournalContents.of(journal);
        assertThat(j.of(RecordType.INTENT)).allSatisfy(i -> assertThat(j.where(o -> o.type() == RecordType.OUTCOME
                && o.intentKey().equals(i.intentKey()))).as("every intent written has its outcome").isNotEmpty());
    }

    static List<Jdk> jdks() {
        return Jdk.all();
    }

    /**
     * A burst of large calls (about 1.4 MB of journal each, four threads) onto a small disk: the reserve
     * check counts every record by its size, so the burst is refused (retryable, effect no, "disk full")
     * before the disk runs out, never on a stale figure; the JVM never dies of SIGBUS and no write stalls;
     * every ok has its intent in the journal, no refused call's body ran. After a restart on a larger disk
     * nothing is held that was not in flight: the refused intents run, the done ones are deduplicated.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aBurstOfLargeCallsOntoASmallDiskIsRefusedNeverACrashAndHoldsNothingAfterARestart(Jdk jdk) throws Exception {
        Path disk = mountTmpfs("24m");
        Path journal = disk.resolve("journal");
        ForkedApp burst = ForkedApp.jdk(jdk).main(BurstApp.class).workDir(tmp)
                // the reserve covers what calls already admitted still write: 4 threads' outcomes of ~1 MiB each
                .agentArgs("journal=" + journal + ",journal.reserve=8m").sysprop("threads", 4).sysprop("calls", 40)
                .start(tmp.resolve("logs"));
        int code = burst.awaitExit(Duration.ofMinutes(3));
        String err = burst.stderr();
        assertThat(code).as("the JVM survived the full disk\n" + err).isZero();
        assertThat(err).doesNotContain("SIGBUS", "A fatal error has been detected", "InternalError",
                "could not journal a outcome record");
        assertThat(Files.getFileStore(disk).getUsableSpace()).as("the disk never ran out: the reserve held")
                .isGreaterThan(1L << 20);
        Map<String, String> calls = lines(burst.stdout(), "CALL ");
        assertThat(calls).hasSize(40);
        List<String> ok = calls.entrySet().stream().filter(e -> e.getValue().equals("ok")).map(Map.Entry::getKey).toList();
        List<String> refused = calls.entrySet().stream().filter(e -> !e.getValue().equals("ok")).map(Map.Entry::getKey)
                .toList();
        assertThat(ok).as("the disk took some calls").isNotEmpty();
        assertThat(refused).as("and then was full").isNotEmpty();
        for (String id : refused) {
            assertThat(calls.get(id)).as(id).startsWith("THROWN {\"outcome\":\"retryable\",\"effect_applied\":\"no\"")
                    .contains("disk full");
        }
        assertThat(lines(burst.stdout(), "BODY ").keySet()).as("no refused call's body ran")
                .containsExactlyInAnyOrderElementsOf(ok);
        JournalContents j = JournalContents.of(journal);
        List<String> inFlight = new ArrayList<>();
        for (String id : ok) {
            List<JournalRecord> intent = j.where(r -> r.type() == RecordType.INTENT && r.args().contains("\"" + id + "\""));
            assertThat(intent).as("the journal backs the ok of " + id).hasSize(1);
            if (j.where(r -> r.type() == RecordType.OUTCOME && r.intentKey().equals(intent.get(0).intentKey())).isEmpty()) {
                inFlight.add(id);
            }
        }

        assertThat(sh("mount", "-o", "remount,size=96m", disk.toString())).doesNotContain("mount:");
        ForkedApp again = ForkedApp.jdk(jdk).main(BurstApp.class).workDir(tmp).agentArgs("journal=" + journal)
                .sysprop("threads", 1).sysprop("calls", 40).sysprop("small", true).run(tmp.resolve("logs"),
                        Duration.ofMinutes(3));
        Map<String, String> repeats = lines(again.stdout(), "CALL ");
        assertThat(lines(again.stdout(), "BODY ").keySet()).as("only what was refused runs; nothing done runs twice")
                .containsExactlyInAnyOrderElementsOf(refused);
        for (String id : calls.keySet()) {
            if (!inFlight.contains(id)) {
                assertThat(repeats.get(id)).as(id + " is not held: it was not in flight").isEqualTo("ok");
            }
        }
        assertThat(again.stderr()).doesNotContain("damaged record");
    }

    /** {@code PREFIX id rest} lines of {@code out}, by id. */
    private static Map<String, String> lines(String out, String prefix) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        out.lines().filter(l -> l.startsWith(prefix)).forEach(l -> {
            String rest = l.substring(prefix.length());
            int sp = rest.indexOf(' ');
            m.put(sp < 0 ? rest : rest.substring(0, sp), sp < 0 ? "" : rest.substring(sp + 1));
        });
        return m;
    }

    // ------------------------------------------------------------------ read-only

    @Test
    void aDiskThatTurnsReadOnlyMidRunRefusesEffectfulCallsAndReadsGoOn() throws Exception {
        Path disk = mountExt4ErrorsRemountRo();
        Path journal = disk.resolve("journal");
        ForkedApp app = faultApp(journal, null).start(tmp.resolve("logs"));
        try {
            app.awaitLine(l -> l.startsWith("CALL 3 effectful ok"), Duration.ofSeconds(90));
            // what a failing disk does: ext4 turns itself read-only under the running writer
            String dev = sh("findmnt", "-n", "-o", "SOURCE", disk.toString()).trim().replace("/dev/", "");
            Files.writeString(Path.of("/sys/fs/ext4/" + dev + "/trigger_fs_error"), "1");
            String refused = app.awaitLine(l -> l.contains(" effectful retryable") && l.contains("read-only"),
                    Duration.ofSeconds(30));
            assertThat(refused).contains("\"effect_applied\":\"no\"", "journal unavailable: directory read-only: " + journal);
            int n = callNumber(refused);
            app.awaitLine(l -> l.startsWith("CALL " + (n + 2) + " read ok"), Duration.ofSeconds(30));
            assertThat(lastBodies(app)).as("no effectful body ran while refused").isEqualTo(bodiesAt(app, n));
        } finally {
            Files.writeString(tmp.resolve("control").resolve("stop"), "");
            app.awaitExit(Duration.ofSeconds(60));
        }
    }

    // ------------------------------------------------------------------ damaged files

    @Test
    void aTruncatedCycleFileKeepsEveryRecordBeforeTheCutAndTheWriterGoesOn() throws Exception {
        Path journal = tmp.resolve("journal");
        List<JournalRecord> before = runUntil(journal, 30);
        Path cycle = cycleFile(journal);
        long used = usedLength(cycle);
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.setLength(used - 2000); // the last few records torn off, as a crash of the disk would
        }
        List<JournalRecord> after = prefixOnDisk(cycle);
        assertThat(after).as("what survives is exactly a prefix of what was written").isNotEmpty()
                .hasSizeLessThan(before.size()).isEqualTo(before.subList(0, after.size()));
        expectVerifyReports(journal, cycle, "truncated", after.size());

        restartAndExpectService(journal, cycle, before, after);
    }

    @Test
    void bytesOverwrittenInTheMiddleKeepEveryRecordBeforeTheDamage() throws Exception {
        Path journal = tmp.resolve("journal");
        List<JournalRecord> before = runUntil(journal, 30);
        Path cycle = cycleFile(journal);
        List<CycleFileScan.Found> written = CycleFileScan.full(cycle).records();
        // from the header of the record in the middle on: a decodable but altered body cannot be told
        // from a sound one (the format has no checksum), so the junk starts where a check can see it
        try (RandomAccessFile f = new RandomAccessFile(cycle.toFile(), "rw")) {
            f.seek(written.get(written.size() / 2).offset());
            byte[] junk = new byte[64];
            java.util.Arrays.fill(junk, (byte) 0x5a);
            f.write(junk);
        }
        List<JournalRecord> after = prefixOnDisk(cycle);
        assertThat(after).as("records before the damage are read back unchanged").hasSizeLessThan(before.size())
                .isEqualTo(before.subList(0, after.size()));
        assertThat(after).hasSize(written.size() / 2);
        expectVerifyReports(journal, cycle, "", after.size());
        restartAndExpectService(journal, cycle, before, after);
    }

    @Test
    void aRemovedMetadataFileIsRebuiltAndNothingIsLost() throws Exception {
        Path journal = tmp.resolve("journal");
        List<JournalRecord> before = runUntil(journal, 20);
        Files.delete(journal.resolve("metadata.cq4t"));
        ForkedApp again = faultApp(journal, null).sysprop("stopAfter", 25).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        assertThat(again.stdout()).contains("CALL 1 effectful ok recorded ref-1");
        assertThat(lastBodies(again)).as("the 20 known intents deduplicated, only the 5 new ones ran").isEqualTo(5);
        List<JournalRecord> after = JournalContents.of(journal).records();
        assertThat(after.subList(0, before.size())).isEqualTo(before);
    }

    /**
     * After damage the writer starts, logs the damage once naming file and offset, keeps every
     * complete record before it (known intents are served from the journal, their bodies not run),
     * journals the new calls, and a second start still knows all of them.
     */
    private void restartAndExpectService(Path journal, Path cycle, List<JournalRecord> before,
                                         List<JournalRecord> recovered) throws Exception {
        ForkedApp again = faultApp(journal, null).sysprop("stopAfter", 40).start(tmp.resolve("logs"));
        int code = again.awaitExit(Duration.ofSeconds(120));
        String out = again.stdout();
        assertThat(code).as(out + again.stderr()).isZero();
        List<String> effectful = out.lines().filter(l -> l.contains(" effectful ")).toList();
        assertThat(effectful).hasSize(40).allMatch(l -> l.contains(" effectful ok"));
        List<String> damageLines = again.stderr().lines().filter(l -> l.contains("journal damaged: ")).toList();
        assertThat(damageLines).as("the damage is logged loudly, once").singleElement().asString()
                .contains(cycle.getFileName().toString(), "at byte ", recovered.size() + " complete record(s)");
        long knownOk = recovered.stream().filter(r -> r.type() == RecordType.OUTCOME && OutcomeWord.OK == r.outcome()
                && "record_entry".equals(r.call())).count();
        assertThat(knownOk).isPositive();
        assertThat(lastBodies(again)).as("the " + knownOk + " intents recovered with an ok were not run again")
                .isEqualTo((int) (40 - knownOk));
        assertThat(out).as("a known intent returns its stored result").contains("CALL 1 effectful ok recorded ref-1");

        // nothing is lost on the next start: the recovered records and the new ones are all known
        ForkedApp third = faultApp(journal, null).sysprop("stopAfter", 40).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        assertThat(lastBodies(third)).as("all 40 intents known after a second restart").isZero();
        assertThat(third.stderr()).doesNotContain("journal damaged: ");
        CliRun verify = CliRun.journal(journal, "verify");
        assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(1);
        assertThat(verify.stdout()).contains("damaged cycle file moved aside by the writer: " + cycle.getFileName());
    }

    /** {@code journal verify} fails and says which file, where, and how many records came before the damage. */
    private static void expectVerifyReports(Path journal, Path cycle, String what, int kept) throws Exception {
        CliRun verify = CliRun.journal(journal, "verify");
        assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(1);
        assertThat(verify.stdout()).as(verify.toString()).contains("damaged cycle file " + cycle.getFileName() + ": " + what)
                .contains(" at byte ", kept + " complete record(s) before it");
    }

    /** The complete records before the first damage, read byte by byte. */
    private static List<JournalRecord> prefixOnDisk(Path cycle) throws IOException {
        CycleFileScan.Result scan = CycleFileScan.full(cycle);
        assertThat(scan.damaged()).as("the scan finds the damage").isTrue();
        return scan.records().stream().map(CycleFileScan.Found::record).toList();
    }

    // ------------------------------------------------------------------ helpers

    private ForkedApp faultApp(Path journal, String extraAgentArgs) throws IOException {
        Files.createDirectories(tmp.resolve("control"));
        Files.deleteIfExists(tmp.resolve("control").resolve("stop"));
        return ForkedApp.jdk(Jdk.current()).main(FaultApp.class)
                .agentArgs("journal=" + journal + (extraAgentArgs == null ? "" : "," + extraAgentArgs))
                .sysprop("control", tmp.resolve("control")).sysprop("pauseMillis", 20);
    }

    private List<JournalRecord> runUntil(Path journal, int calls) throws Exception {
        faultApp(journal, null).sysprop("stopAfter", calls).run(tmp.resolve("logs"), Duration.ofSeconds(120));
        List<JournalRecord> records = JournalContents.of(journal).records();
        assertThat(records.stream().filter(r -> r.type() == RecordType.INTENT && "record_entry".equals(r.call())))
                .hasSize(calls);
        return records;
    }

    private void stop(ForkedApp app, Path journal) throws Exception {
        Files.writeString(tmp.resolve("control").resolve("stop"), "");
        assertThat(app.awaitExit(Duration.ofSeconds(60))).as("the JVM survived the fault").isZero();
    }

    private static Path cycleFile(Path journal) throws IOException {
        try (Stream<Path> s = Files.list(journal)) {
            return s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    /** Chronicle files are sparse and pre-sized: the data ends at the last non-zero byte. */
    private static long usedLength(Path file) throws IOException {
        byte[] all = Files.readAllBytes(file);
        int last = all.length - 1;
        while (last > 0 && all[last] == 0) {
            last--;
        }
        return last + 1;
    }

    private static int callNumber(String line) {
        return Integer.parseInt(line.split(" ")[1]);
    }

    private static int lastBodies(ForkedApp app) throws IOException {
        return app.stdout().lines().filter(l -> l.startsWith("BODIES ")).map(l -> Integer.parseInt(l.substring(7).trim()))
                .reduce((a, b) -> b).orElse(0);
    }

    /** The BODIES count printed right after call {@code n}. */
    private static int bodiesAt(ForkedApp app, int n) throws IOException {
        List<String> lines = app.stdout().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("CALL " + n + " read")) {
                return Integer.parseInt(lines.get(i + 1).substring(7).trim());
            }
        }
        throw new AssertionError("no call " + n);
    }

    private static void fill(Path file, long bytes) throws IOException {
        byte[] chunk = new byte[1 << 20];
        try (var out = Files.newOutputStream(file)) {
            for (long left = bytes; left > 0; left -= chunk.length) {
                out.write(chunk, 0, (int) Math.min(chunk.length, left));
            }
        }
    }

    private Path mountTmpfs(String size) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("disk"));
        Process p;
        try {
            p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException noMount) {
            assumeTrue(false, "skipped: the mount command is not available here (" + noMount.getMessage() + ")");
            throw noMount;
        }
        boolean ok = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        assumeTrue(ok, "mounting a tmpfs needs root (mount -t tmpfs): " + new String(p.getInputStream().readAllBytes()));
        mounts.add(dir);
        return dir;
    }

    private Path mountExt4ErrorsRemountRo() throws Exception {
        Path img = tmp.resolve("disk.img");
        try (RandomAccessFile f = new RandomAccessFile(img.toFile(), "rw")) {
            f.setLength(64L << 20);
        }
        Path dir = Files.createDirectories(tmp.resolve("ext4"));
        boolean ok = run("mkfs.ext4", "-q", "-F", img.toString())
                && run("mount", "-o", "loop,errors=remount-ro", img.toString(), dir.toString());
        assumeTrue(ok, "an ext4 loop device needs root and mkfs.ext4; skipped");
        mounts.add(dir);
        return dir;
    }

    /**
     * Runs a system tool, found on the PATH or in the sbin folders (an ordinary user's PATH lacks
     * {@code /sbin}, where Debian keeps {@code mkfs.ext4}); a tool that is not there is a skip with
     * its name, never an error.
     */
    private static boolean run(String... cmd) throws Exception {
        String[] resolved = cmd.clone();
        resolved[0] = locate(cmd[0]);
        assumeTrue(resolved[0] != null, cmd[0] + " is not installed (looked on PATH, /sbin, /usr/sbin); skipped");
        Process p = new ProcessBuilder(resolved).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static String locate(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/sbin", "/usr/sbin"));
        return dirs.stream().filter(d -> !d.isBlank()).map(d -> Path.of(d, tool))
                .filter(Files::isExecutable).map(Path::toString).findFirst().orElse(null);
    }

    private static String sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
