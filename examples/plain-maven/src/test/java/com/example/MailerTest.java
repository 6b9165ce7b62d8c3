package com.example;

import dev.effectful.Attempt;
import dev.effectful.Task;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs with -javaagent (see pom.xml): the agent guards the tool, journals it and deduplicates a repeat. */
class MailerTest {

    @Test
    void aRepeatedSendIsDeduplicatedAndJournalled() throws Exception {
        Mailer mailer = new Mailer();
        String first;
        String again;
        try (Task task = Task.open("welcome-42", Duration.ofSeconds(60))) {
            first = mailer.sendWelcome("c-42", "Hello!");
            again = mailer.sendWelcome("c-42", "Hello!");
        }
        assertEquals("welcome #1 to c-42", first);
        assertEquals(first, again, "the repeat gets the stored result");
        assertEquals(1, Mailer.SENT.get(), "the body ran once: without the agent it would run twice");
        assertTrue(Attempt.current().isEmpty(), "no attempt outside a tool call");

        Path journal = Path.of(System.getProperty("effectful.journal.dir"));
        try (Stream<Path> files = Files.list(journal)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().endsWith(".cq4")), "a journal cycle file in " + journal);
        }
    }
}
