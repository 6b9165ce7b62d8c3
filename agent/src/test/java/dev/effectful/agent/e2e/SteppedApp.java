package dev.effectful.agent.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A forked app stepped through its {@link ControlFiles}: one writer or host of a test, {@code app} started
 * with {@code ctl.dir()} as its {@code ctl} system property. Closing it is a {@code kill -9}; a new one on
 * the same journal is a restart.
 */
public record SteppedApp(ForkedApp app, ControlFiles ctl) implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Runs one command in the app and returns what the call gave back. */
    public String run(String command) throws Exception {
        return ctl.run(app, command);
    }

    /** Runs one command that must be refused, not run: the outcome JSON it threw. */
    public JsonNode refused(String command) throws Exception {
        String answer = run(command);
        assertThat(answer).as("refused, not run").startsWith("THROWN ");
        return outcome(answer);
    }

    /** The outcome JSON of a THROWN answer (or of a String tool's returned outcome text). */
    public static JsonNode outcome(String answer) throws Exception {
        return JSON.readTree(answer.startsWith("THROWN ") ? answer.substring("THROWN ".length()) : answer);
    }

    @Override
    public void close() throws Exception {
        try {
            app.kill9();
        } catch (AssertionError alreadyGone) {
            // it ended by itself (a failed step); its output is in the assertion that failed
        }
    }
}
