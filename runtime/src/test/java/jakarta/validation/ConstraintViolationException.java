package jakarta.validation;

/** Its own simple name does not end in ValidationException; its superclass's does. */
public class ConstraintViolationException extends ValidationException {
    public ConstraintViolationException(String message) {
        super(message);
    }
}
