package org.springframework.http;

/** Package-private like the real one: calling value() through this class would fail. */
final class DefaultHttpStatusCode implements HttpStatusCode {
    private final int value;

    DefaultHttpStatusCode(int value) {
        this.value = value;
    }

    @Override
    public int value() {
        return value;
    }
}
