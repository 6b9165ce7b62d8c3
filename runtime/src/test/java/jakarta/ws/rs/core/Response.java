package jakarta.ws.rs.core;

import java.util.Map;

/** Test fake of JAX-RS's abstract Response; the instance is of a non-public implementation class. */
public abstract class Response {
    public abstract int getStatus();

    public abstract String getHeaderString(String name);

    public static Response of(int status, Map<String, String> headers) {
        return new ResponseImpl(status, headers);
    }
}
