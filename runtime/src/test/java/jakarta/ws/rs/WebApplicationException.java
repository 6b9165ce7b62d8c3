package jakarta.ws.rs;

import jakarta.ws.rs.core.Response;

/** Test fake of JAX-RS's WebApplicationException: getResponse(). */
public class WebApplicationException extends RuntimeException {
    private final Response response;

    public WebApplicationException(String message, Response response) {
        super(message);
        this.response = response;
    }

    public Response getResponse() {
        return response;
    }
}
