package jakarta.ws.rs.core;

import java.util.Map;

final class ResponseImpl extends Response {
    private final int status;
    private final Map<String, String> headers;

    ResponseImpl(int status, Map<String, String> headers) {
        this.status = status;
        this.headers = headers;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public String getHeaderString(String name) {
        return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }
}
