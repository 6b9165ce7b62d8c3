package org.springframework.http;

import java.util.Map;

class ReadOnlyHttpHeaders extends HttpHeaders {
    ReadOnlyHttpHeaders(Map<String, String> values) {
        super(values);
    }

    @Override
    public String getFirst(String name) {
        return super.getFirst(name);
    }
}
