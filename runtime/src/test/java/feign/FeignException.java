package feign;

import java.util.Collection;
import java.util.Map;

/** Test fake of Feign's FeignException: status() and responseHeaders(). */
public class FeignException extends RuntimeException {
    private final int status;
    private final Map<String, Collection<String>> headers;

    public FeignException(int status, String message, Map<String, Collection<String>> headers) {
        super(message);
        this.status = status;
        this.headers = headers;
    }

    public int status() {
        return status;
    }

    public Map<String, Collection<String>> responseHeaders() {
        return headers;
    }

    /** Feign throws nested subclasses per status. */
    public static class ServiceUnavailable extends FeignException {
        public ServiceUnavailable(String message, Map<String, Collection<String>> headers) {
            super(503, message, headers);
        }
    }
}
