package dev.effectful.it.events;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The spans and metrics a forked app printed with {@code apps.Dump}, read back. */
record Telemetry(List<SpanLine> spans, List<String> metrics, List<String> factLines) {

    record SpanLine(String id, String parent, String trace, String kind, String status, String name,
                    Map<String, String> attrs, List<String> events) {
        String attr(String key) {
            return attrs.get(key);
        }
    }

    static Telemetry parse(String stdout) {
        Map<String, SpanLine> byId = new LinkedHashMap<>();
        List<String> metrics = new ArrayList<>();
        List<String> facts = new ArrayList<>();
        for (String l : stdout.split("\n")) {
            String[] p = l.split(" ", 7);
            switch (p[0]) {
                case "SPAN" -> byId.put(p[1], new SpanLine(p[1], p[2], p[3], p[4], p[5], p[6], new LinkedHashMap<>(),
                        new ArrayList<>()));
                case "ATTR" -> {
                    String kv = l.substring(l.indexOf(' ', 5) + 1);
                    byId.get(p[1]).attrs().put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                }
                case "EVENT" -> byId.get(p[1]).events().add(l.substring(l.indexOf(' ', 6) + 1));
                case "METRIC" -> metrics.add(l.substring(7));
                default -> {
                    continue;
                }
            }
            facts.add(l);
        }
        return new Telemetry(new ArrayList<>(byId.values()), metrics, facts);
    }

    List<SpanLine> tools(String verb) {
        return spans.stream().filter(s -> s.name().equals("execute_tool " + verb)).toList();
    }

    Optional<SpanLine> named(String name) {
        return spans.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /**
     * The spans as an indented tree under their roots, each with its effectful attributes and events:
     * what docs/TRACE-EXAMPLE.md shows, written from a real run.
     */
    String tree() {
        StringBuilder out = new StringBuilder();
        java.util.Set<String> ids = new java.util.HashSet<>();
        spans.forEach(s -> ids.add(s.id()));
        spans.stream().filter(s -> !ids.contains(s.parent())).forEach(root -> render(root, "", out));
        return out.toString();
    }

    private void render(SpanLine s, String indent, StringBuilder out) {
        out.append(indent).append(s.name()).append("  [").append(s.kind()).append(s.status().equals("UNSET") ? ""
                : ", " + s.status()).append("]\n");
        s.attrs().forEach((k, v) -> out.append(indent).append("    ").append(k).append(" = ").append(v).append('\n'));
        s.events().forEach(e -> out.append(indent).append("    event: ").append(e).append('\n'));
        spans.stream().filter(c -> c.parent().equals(s.id())).forEach(c -> render(c, indent + "  ", out));
    }
}
