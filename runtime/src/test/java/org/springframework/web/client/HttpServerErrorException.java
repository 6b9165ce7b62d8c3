package org.springframework.web.client;

import org.springframework.http.HttpHeaders;

/** A subclass, as thrown in practice: the carrier must be found among superclasses. */
public class HttpServerErrorException extends RestClientResponseException {
    public HttpServerErrorException(String message, int status, HttpHeaders headers) {
        super(message, status, headers);
    }
}
