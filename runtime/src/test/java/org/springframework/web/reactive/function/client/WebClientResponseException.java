package org.springframework.web.reactive.function.client;

import org.springframework.http.HttpHeaders;

/** Test fake in the Spring 5 shape: no getStatusCode(), only getRawStatusCode(), and getHeaders(). */
public class WebClientResponseException extends RuntimeException {
    private final int status;
    private final HttpHeaders headers;

    public WebClientResponseException(String message, int status, HttpHeaders headers) {
        super(message);
        this.status = status;
        this.headers = headers;
    }

    public int getRawStatusCode() {
        return status;
    }

    public HttpHeaders getHeaders() {
        return headers;
    }
}
