package dev.effectful.junit;

import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.runtime.engine.CallEngine;
import dev.effectful.runtime.engine.EngineFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * One simulated application process: the real engine over a scratch journal. Killing it drops every
 * later journal write; {@link #restart()} is a new process over the same journal, its intent index
 * rebuilt from what the dead one wrote, as after a real crash.
 */
final class KitProcess {

    private final Path dir;
    private final ScratchJournal journal;
    private final CallEngine engine;

    private KitProcess(Path dir) {
        this.dir = dir;
        QuietLog.install();
        try {
            this.journal = ScratchJournal.open(dir);
            EffectfulConfig config = EffectfulConfig.builder(dir)
                    .logLevel(EffectfulConfig.LogLevel.WARN).build();
            this.engine = EngineFactory.over(config, journal);
        } catch (IOException e) {
            throw new UncheckedIOException("effectful kit: cannot open a scratch journal in " + dir, e);
        }
    }

    static KitProcess start(Path dir) {
        return new KitProcess(dir);
    }

    KitProcess restart() {
        close();
        return new KitProcess(dir);
    }

    void kill() {
        journal.kill();
    }

    boolean dead() {
        return journal.dead();
    }

    CallEngine engine() {
        return engine;
    }

    ScratchJournal journal() {
        return journal;
    }

    /**
     * Ends the process: its engine's threads (the deadline watchdog first: an alarm of a call the
     * process never finished must not fire on the thread that ran it) and its journal.
     */
    void close() {
        try {
            engine.close();
        } finally {
            journal.close();
        }
    }
}
