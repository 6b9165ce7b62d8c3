package jakarta.validation;

/** Test fake of Bean Validation's base exception, matched by name only. */
public class ValidationException extends RuntimeException {
    public ValidationException(String message) {
        super(message);
    }
}
