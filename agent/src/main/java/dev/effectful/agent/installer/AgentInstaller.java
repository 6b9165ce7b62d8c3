package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.Bridge;
import dev.effectful.agent.bridge.Frameworks;
import dev.effectful.agent.bridge.LoadingHooks;
import dev.effectful.agent.bridge.StatusReport;
import dev.effectful.agent.integration.FrameworkTasks;
import dev.effectful.agent.integration.Instrumentations;
import dev.effectful.agent.integration.McpElicitation;
import dev.effectful.agent.integration.McpToolHints;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.JournalFiles;
import dev.effectful.core.journal.JournalProblem;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.log.LogSink;
import dev.effectful.core.log.StderrSink;

import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Runs inside the isolated class loader: reads the configuration, chooses the log sink, registers
 * the transformer, and rewrites what was loaded before it. An invalid configuration does not stop
 * any of this: the tools are rewritten all the same and refuse every effectful call (fail closed). Byte Buddy's pipeline is not touched here unless
 * tools are already loaded (attach) or a library class an instrumentation rewrites is; the executors the
 * JVM loaded early are retransformed with its bundled ASM core only ({@link ExecutorWeaver}).
 */
public final class AgentInstaller {

    private AgentInstaller() {
    }

    public static void install(Instrumentation inst, String args, boolean attached) {
        long t0 = System.nanoTime();
        EffectfulConfig.Loaded loaded = EffectfulConfig.read(args);
        EffectfulConfig config = loaded.config();
        configureLog(loaded);
        // straight to stderr, whatever the log sink: making the sink here would start the
        // application's logging framework in premain
        loaded.warnings().forEach(System.err::println);
        StartupQuiet quiet = new StartupQuiet();
        EngineStarter starter;
        if (loaded.valid()) {
            starter = new EngineStarter(config, quiet);
        } else {
            // fail closed: the tools are still rewritten, and every effectful call is refused naming the fix
            String summary = loaded.errorSummary();
            System.err.println("effectful ERROR: " + summary);
            starter = EngineStarter.refusing(new JournalProblem(JournalProblem.Cause.MISCONFIGURED, summary));
        }
        Bridge.install(new EngineDispatcher(starter));
        StatusReport.install(new StatusSource(starter));
        Frameworks.install(new FrameworkTasks(config.taskBudget(), config.mcpTrustTask(),
                new McpToolHints(config.mcpHints(), new DeclaredTools(Weavers.supertypes())),
                new McpElicitation(config.approvals().elicit())));
        ClassLoader own = AgentInstaller.class.getClassLoader();
        Instrumentations libraries = Instrumentations.load(own);
        JdkHookInstall hooks = new JdkHookInstall(inst, own);
        WeavingTransformer transformer = new WeavingTransformer(own, starter, inst, Weavers.supertypes(), libraries, hooks,
                quiet);
        LoadingHooks.install(new LoadingGuards(own, transformer));
        inst.addTransformer(transformer, true);
        // at premain too: another -javaagent before this one, or a JDK 24+ AOT cache, may have loaded tool classes
        List<Class<?>> early = LoadedClasses.toRewrite(inst, own, libraries);
        boolean toolsLoadedEarly = false;
        for (Class<?> c : early) {
            toolsLoadedEarly |= c.getClassLoader() != null;
        }
        if (toolsLoadedEarly) {
            // their interfaces never passed the transformer, so no class load waits for the hooks: in before any lambda
            hooks.installNow();
        } else {
            hooks.startInBackground();
        }
        for (Class<?> c : early) {
            try {
                inst.retransformClasses(c);
            } catch (Throwable t) {
                AgentLog.errorOnce("retransform:" + c.getName(), "effectful could not rewrite the already loaded "
                        + c.getName() + "; " + (c.getClassLoader() == null ? "the task context does not follow work"
                        + " through it (use Task.wrap)" + OpenTelemetryAgent.hint() : "its tools run UNGUARDED: put"
                        + " -javaagent:effectful-agent.jar before any other agent on the command line"), t);
            }
        }
        Weavers.warmUpInBackground();
        if (loaded.valid() && JournalFiles.looksLikeJournal(config.journalDir())) {
            // a restart on its own journal: the application has tools, so open the journal (and rebuild
            // the index) now, beside its start: the index is what its first call would wait for longest
            starter.startOpeningNow();
        }
        AgentLog.debug("effectful installed in " + (System.nanoTime() - t0) / 1_000_000 + " ms ("
                + early.size() + " loaded classes rewritten)");
        if (attached) {
            // the application runs already: its logging is up, so the system loader may be asked now
            AgentLog.lookForApplicationLog(ClassLoader.getSystemClassLoader());
            AgentLog.info("effectful agent attached; journal " + config.journalDir());
        }
    }

    private static void configureLog(EffectfulConfig.Loaded loaded) {
        LogSink.Level level = LogSink.Level.valueOf(loaded.config().logLevel().name());
        // Without an SLF4J binding the agent is quiet on stderr unless asked: attempt lines are INFO.
        LogSink.Level stderrLevel = loaded.isSet(EffectfulConfig.LOG_LEVEL) && loaded.valid() ? level : LogSink.Level.WARN;
        // the application's SLF4J is looked for at its guarded calls (its loader may be Spring Boot's or a web
        // application's, and asking here, in premain, would initialise its logging before its main runs)
        AgentLog.configureForApplication("dev.effectful", new StderrSink(System.err, stderrLevel), level);
    }
}
