package org.springframework.http;

import java.util.Map;
import java.util.TreeMap;

/** Test fake of Spring's HttpHeaders: case-insensitive, getFirst(String). */
public class HttpHeaders {
    private final Map<String, String> values = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    public HttpHeaders() {
    }

    HttpHeaders(Map<String, String> values) {
        this.values.putAll(values);
    }

    public String getFirst(String name) {
        return values.get(name);
    }

    /** Like Spring, a read-only view is a non-public subclass overriding getFirst. */
    public static HttpHeaders readOnly(Map<String, String> values) {
        return new ReadOnlyHttpHeaders(values);
    }
}
