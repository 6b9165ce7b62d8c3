package dev.effectful.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the model asked for and what it was told, call by call, as the assistants wrote it down. */
final class Transcript {

    /** One tool call; {@code result} is null when the process died before the call returned. */
    record Call(String act, String tool, String args, long startedAt, String result, boolean failed) {

        boolean effectful() {
            return !tool.equals("search_products");
        }

        /** The result in one word, as the model would summarise it. */
        String seen() {
            if (result == null) {
                return "killed";
            }
            if (result.startsWith("{\"outcome\":\"")) {
                String word = result.substring(12, result.indexOf('"', 12)).replace("retryable", "retry")
                        .replace("permanent", "perm");
                return result.contains("\"retry_after_s\"") ? word + "+RA" : word;
            }
            if (result.contains("\"status\":\"error\"")) {
                return "200+error";
            }
            if (failed) {
                if (result.matches("(?s)^\\d{3} from .*")) {
                    return result.substring(0, 3);
                }
                return result.toLowerCase().contains("timed out") || result.toLowerCase().contains("timeout") ? "timeout" : "error";
            }
            return "ok";
        }
    }

    private Transcript() {
    }

    static List<Call> read(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, JsonNode> started = new LinkedHashMap<>();
        Map<String, JsonNode> ended = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode e = json.readTree(line);
            String id = e.path("act").asText() + "/" + e.path("id").asText();
            (e.path("ev").asText().equals("start") ? started : ended).put(id, e);
        }
        List<Call> calls = new ArrayList<>();
        started.forEach((id, s) -> {
            JsonNode e = ended.get(id);
            calls.add(new Call(s.path("act").asText(), s.path("tool").asText(), s.path("args").asText(), s.path("at").asLong(),
                    e == null ? null : e.path("result").asText(), e != null && e.path("failed").asBoolean()));
        });
        return calls;
    }
}
