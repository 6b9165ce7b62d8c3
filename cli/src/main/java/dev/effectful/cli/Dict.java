package dev.effectful.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Small ids for strings that repeat across a journal (tasks, calls, kinds): each distinct string is
 * kept once, however many records name it.
 */
final class Dict {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> words = new ArrayList<>();

    Dict() {
        words.add(null); // id 0 stands for "absent"
    }

    int id(String word) {
        if (word == null) {
            return 0;
        }
        Integer id = ids.get(word);
        if (id == null) {
            id = words.size();
            ids.put(word, id);
            words.add(word);
        }
        return id;
    }

    /** The id of a known word, or -1 without adding it. */
    int find(String word) {
        Integer id = word == null ? null : ids.get(word);
        return id == null ? -1 : id;
    }

    String word(int id) {
        return words.get(id);
    }

    int size() {
        return words.size();
    }
}
