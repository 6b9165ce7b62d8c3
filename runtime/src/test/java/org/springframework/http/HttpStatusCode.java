package org.springframework.http;

/** Test fake of Spring 6's HttpStatusCode: only what the classifier reads. */
public interface HttpStatusCode {
    int value();

    /** Like Spring, hands out a non-public implementation, so reflection must go through this interface. */
    static HttpStatusCode valueOf(int code) {
        return new DefaultHttpStatusCode(code);
    }
}
