package dev.effectful.bench;

import org.openjdk.jmh.runner.RunnerException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reruns the Effectful comparators on one thread under JFR (async sampling, with non-safepoint
 * debug info so inlined frames are attributed) and summarises where their time goes.
 */
final class Profile {

    record Hotspots(List<JfrHotspots.Line> inclusive, List<JfrHotspots.Line> self) {
    }

    private final Settings settings;

    Profile(Settings settings) {
        this.settings = settings;
    }

    Map<String, Hotspots> run(PerCall perCall) throws IOException, RunnerException {
        Map<String, Hotspots> out = new LinkedHashMap<>();
        Path dir = settings.out().resolve("profile");
        Files.createDirectories(dir);
        for (PerCall.Comparator c : PerCall.comparators()) {
            // the PostgreSQL store's time is on the wire and in the server, where JFR does not look
            if (!c.agent() || c.name().equals("effectful_sync") || c.store().postgres()
                    || !settings.wantsComparator(c.name())) {
                continue;
            }
            Path jfr = dir.resolve(c.name() + ".jfr");
            Files.deleteIfExists(jfr);
            perCall.run(c, 1, List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints",
                    "-XX:StartFlightRecording=filename=" + jfr + ",settings=profile,dumponexit=true"), true);
            Hotspots h = new Hotspots(JfrHotspots.top(jfr, 30, null), JfrHotspots.topSelf(jfr, 15));
            out.put(c.name(), h);
            System.out.println("== profile " + c.name() + " (inclusive % of samples below the benchmark method)");
            for (JfrHotspots.Line l : h.inclusive()) {
                System.out.printf("   %5.1f%%  %s%n", l.inclusivePct(), l.method());
            }
        }
        return out;
    }
}
