package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One model API's shape, as {@link ScriptedModel} serves it: only the JSON it answers. The server does
 * the HTTP; a format reads the request its framework sent and says what the model replies, so a new
 * framework's test adds a format, never another server.
 */
public interface WireFormat {

    /** What follows the server's address in the base URL the client is given (e.g. {@code /v1}). */
    default String basePath() {
        return "";
    }

    /**
     * The reply to one request.
     *
     * @param path    the request's path, for formats that answer only some endpoints
     * @param request the request's JSON body
     */
    Reply answer(String path, JsonNode request) throws IOException;

    /** An HTTP answer: status, extra headers and a JSON body. */
    record Reply(int status, Map<String, String> headers, byte[] body) {

        /** A 200 with {@code body}. */
        public static Reply ok(byte[] body) {
            return new Reply(200, Map.of(), body);
        }

        /** Any status with a JSON text body and the given extra headers. */
        public static Reply of(int status, String body, Map<String, String> headers) {
            return new Reply(status, headers, body.getBytes(StandardCharsets.UTF_8));
        }
    }
}
