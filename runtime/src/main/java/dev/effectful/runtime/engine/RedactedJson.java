package dev.effectful.runtime.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.effectful.runtime.json.JsonMappers;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * {@link Redactor#json} inside JSON: a class of its own so that only a call with a redacted argument
 * loads Jackson's tree model; the {@link Redactor} every call links against names no Jackson type
 * (the verifier would load them with it).
 */
final class RedactedJson {

    private RedactedJson() {
    }

    /**
     * JSON with every secret inside its strings, field names and numbers replaced, still valid
     * JSON; the same instance when none occurs. Text that does not parse is treated as text.
     */
    static String of(String json, Redactor redactor) {
        ObjectMapper mapper = JsonMappers.shared();
        JsonNode tree;
        try {
            tree = mapper.readTree(json);
        } catch (Exception notJson) {
            return redactor.text(json);
        }
        if (tree == null) {
            return redactor.text(json);
        }
        JsonNode replaced = walk(tree, redactor);
        if (replaced == tree) {
            return json;
        }
        try {
            return mapper.writeValueAsString(replaced);
        } catch (Exception e) {
            return redactor.text(json);
        }
    }

    /** The node with secrets replaced; the same node when it holds none. */
    private static JsonNode walk(JsonNode node, Redactor redactor) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            List<Map.Entry<String, JsonNode>> all = new ArrayList<>();
            boolean changed = false;
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                String name = redactor.text(f.getKey());
                JsonNode value = walk(f.getValue(), redactor);
                changed |= !name.equals(f.getKey()) || value != f.getValue();
                all.add(Map.entry(name, value));
            }
            if (!changed) {
                return node;
            }
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> f : all) {
                copy.set(f.getKey(), f.getValue());
            }
            return copy;
        }
        if (node.isArray()) {
            List<JsonNode> all = new ArrayList<>(node.size());
            boolean changed = false;
            for (JsonNode e : node) {
                JsonNode w = walk(e, redactor);
                changed |= w != e;
                all.add(w);
            }
            if (!changed) {
                return node;
            }
            ArrayNode copy = JsonNodeFactory.instance.arrayNode(all.size());
            copy.addAll(all);
            return copy;
        }
        if (node.isValueNode() && !node.isNull()) {
            String before = node.asText();
            String after = redactor.text(before);
            return after.equals(before) ? node : TextNode.valueOf(after);
        }
        return node;
    }
}
