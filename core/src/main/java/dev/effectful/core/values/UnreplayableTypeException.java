package dev.effectful.core.values;

import java.io.IOException;

/**
 * A declared return type whose stored JSON cannot be turned back into an equal value: an
 * interface, an abstract class or Object says nothing about which class to rebuild, and the
 * runtime never reads class names from the journal. An IOException so that a caller treats it
 * like any other stored result it cannot read.
 */
public final class UnreplayableTypeException extends IOException {

    private static final long serialVersionUID = 1L;

    public UnreplayableTypeException(String message) {
        super(message);
    }
}
