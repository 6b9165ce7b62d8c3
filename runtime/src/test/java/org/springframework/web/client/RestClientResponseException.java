package org.springframework.web.client;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;

/** Test fake of Spring 6's RestClientResponseException (same name, same accessor shapes). */
public class RestClientResponseException extends RuntimeException {
    private final int status;
    private final HttpHeaders headers;

    public RestClientResponseException(String message, int status, HttpHeaders headers) {
        super(message);
        this.status = status;
        this.headers = headers;
    }

    public HttpStatusCode getStatusCode() {
        return HttpStatusCode.valueOf(status);
    }

    public int getRawStatusCode() {
        return status;
    }

    public HttpHeaders getResponseHeaders() {
        return headers;
    }
}
