package dev.effectful.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the time goes, from a JFR recording of a benchmark fork: for each method, the share of
 * execution samples in which it is on the stack (inclusive) and on top (self), restricted to
 * samples of the benchmark threads.
 */
final class JfrHotspots {

    record Line(String method, double inclusivePct, double selfPct) {
    }

    private JfrHotspots() {
    }

    static List<Line> top(Path recording, int limit, String focus) throws IOException {
        Map<String, Integer> inclusive = new HashMap<>();
        Map<String, Integer> self = new HashMap<>();
        List<RecordedStackTrace> samples = samples(recording);
        for (RecordedStackTrace st : samples) {
            List<RecordedFrame> frames = belowHarness(st.getFrames());
            if (frames.isEmpty()) {
                self.merge("(JMH harness)", 1, Integer::sum);
                continue;
            }
            self.merge(name(frames.get(0)), 1, Integer::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame f : frames) {
                String n = name(f);
                if (seen.add(n)) {
                    inclusive.merge(n, 1, Integer::sum);
                }
            }
        }
        final int all = Math.max(samples.size(), 1);
        List<Line> lines = new ArrayList<>();
        inclusive.entrySet().stream()
                .filter(en -> focus == null || en.getKey().contains(focus))
                .sorted((a, b) -> b.getValue() - a.getValue())
                .limit(limit)
                .forEach(en -> lines.add(new Line(en.getKey(), 100.0 * en.getValue() / all,
                        100.0 * self.getOrDefault(en.getKey(), 0) / all)));
        return lines;
    }

    static List<Line> topSelf(Path recording, int limit) throws IOException {
        Map<String, Integer> self = new LinkedHashMap<>();
        List<RecordedStackTrace> samples = samples(recording);
        for (RecordedStackTrace st : samples) {
            self.merge(name(st.getFrames().get(0)), 1, Integer::sum);
        }
        final int all = Math.max(samples.size(), 1);
        List<Line> lines = new ArrayList<>();
        self.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(limit)
                .forEach(en -> lines.add(new Line(en.getKey(), 0, 100.0 * en.getValue() / all)));
        return lines;
    }

    /** The stacks of the recording's execution samples taken on a benchmark thread, in recording order. */
    private static List<RecordedStackTrace> samples(Path recording) throws IOException {
        List<RecordedStackTrace> samples = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            RecordedStackTrace st = e.getEventType().getName().equals("jdk.ExecutionSample") ? e.getStackTrace() : null;
            if (st != null && !st.getFrames().isEmpty() && onBenchmarkThread(st)) {
                samples.add(st);
            }
        }
        return samples;
    }

    /** The frames the benchmark method called (top of stack first), without JMH's and the thread's. */
    private static List<RecordedFrame> belowHarness(List<RecordedFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).getMethod().getType().getName().contains("jmh_generated")) {
                return frames.subList(0, i);
            }
        }
        return frames;
    }

    private static boolean onBenchmarkThread(RecordedStackTrace st) {
        for (RecordedFrame f : st.getFrames()) {
            if (f.getMethod().getType().getName().contains("jmh_generated")) {
                return true;
            }
        }
        return false;
    }

    private static String name(RecordedFrame f) {
        String type = f.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
    }
}
