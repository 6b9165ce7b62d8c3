package dev.effectful.runtime.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.effectful.core.json.JsonMappers;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@link Redactor#json} inside JSON, and the JSON view of a redacted bean: a class of its own so that
 * only a call with a redacted argument loads Jackson's tree model; the {@link Redactor} every call
 * links against names no Jackson type (the verifier would load them with it).
 */
final class RedactedJson {

    private static final String TRUNCATED = "$truncated";
    private static final String HEAD = "head";

    private RedactedJson() {
    }

    private static JsonNode head(JsonNode head, Redactor redactor) {
        String before = head.asText();
        String after = redactor.head(before);
        return after.equals(before) ? head : TextNode.valueOf(after);
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

    /**
     * Hands each property of {@code value}'s JSON view to {@code each}, at any depth: a text or a
     * number as its text, binary data as its bytes; at most {@code max} of them, none when the value
     * cannot be rendered (its {@code toString()} is all there is to look for then).
     */
    static void properties(Object value, int max, Consumer<Object> each) {
        JsonNode tree;
        try {
            tree = JsonMappers.shared().valueToTree(value);
        } catch (RuntimeException | StackOverflowError unrenderable) {
            return;
        }
        ArrayDeque<JsonNode> todo = new ArrayDeque<>();
        todo.add(tree);
        int handed = 0;
        while (!todo.isEmpty() && handed < max) {
            JsonNode node = todo.poll();
            if (node.isContainerNode()) {
                node.forEach(todo::add);
            } else if (node.isBinary()) {
                try {
                    each.accept(node.binaryValue());
                    handed++;
                } catch (java.io.IOException notBinary) {
                    // a BinaryNode always has its bytes
                }
            } else if (node.isTextual() || node.isNumber()) {
                each.accept(node.asText());
                handed++;
            }
        }
    }

    /** The node with secrets replaced; the same node when it holds none. */
    private static JsonNode walk(JsonNode node, Redactor redactor) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            List<Map.Entry<String, JsonNode>> all = new ArrayList<>();
            boolean changed = false;
            // ArgsRenderer's marker for a value too long to keep: its head may end with a secret's start
            boolean truncated = node.has(TRUNCATED);
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                String name = redactor.text(f.getKey());
                JsonNode value = truncated && HEAD.equals(f.getKey()) && f.getValue().isTextual()
                        ? head(f.getValue(), redactor) : walk(f.getValue(), redactor);
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
