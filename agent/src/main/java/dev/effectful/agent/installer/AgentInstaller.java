package dev.effectful.agent.installer;

import dev.effectful.agent.bridge.Bridge;
import dev.effectful.runtime.config.EffectfulConfig;
import dev.effectful.runtime.log.AgentLog;
import dev.effectful.runtime.log.LogSink;
import dev.effectful.runtime.log.Slf4jSink;
import dev.effectful.runtime.log.StderrSink;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

import java.lang.instrument.Instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isAnnotatedWith;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isNative;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameContains;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

/**
 * Runs inside the isolated class loader: reads the configuration, chooses the log sink, installs
 * the tool transformer, and starts the engine in the background.
 */
public final class AgentInstaller {

    static final String TOOL_ANNOTATION = "dev.effectful.EffectfulTool";

    private AgentInstaller() {
    }

    public static void install(Instrumentation inst, String args, boolean attached) {
        EffectfulConfig config = EffectfulConfig.load(args);
        configureLog(config, args);
        EngineStarter starter = new EngineStarter(config);
        Bridge.install(new EngineDispatcher(starter));
        long t0 = System.nanoTime();
        installToolTransformer(inst, starter);
        long tools = System.nanoTime() - t0;
        long propagation = ContextPropagation.install(inst);
        AgentLog.debug("effectful tool transformer installed in " + ContextPropagation.millis(tools)
                + ", task-context propagation in " + ContextPropagation.millis(propagation));
        if (attached) {
            AgentLog.info("effectful agent attached; journal " + config.journalDir());
        }
    }

    private static void configureLog(EffectfulConfig config, String args) {
        LogSink.Level level = LogSink.Level.valueOf(config.logLevel().name());
        ClassLoader app = ClassLoader.getSystemClassLoader();
        // Without an SLF4J binding the agent is quiet on stderr unless asked: attempt lines are INFO.
        LogSink.Level stderrLevel = EffectfulConfig.isSet(EffectfulConfig.LOG_LEVEL, args) ? level : LogSink.Level.WARN;
        AgentLog.configure(() -> Slf4jSink.of(app, "dev.effectful")
                .orElseGet(() -> new StderrSink(System.err, stderrLevel)), level);
    }

    private static void installToolTransformer(Instrumentation inst, EngineStarter starter) {
        new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.DescriptionStrategy.Default.HYBRID)
                .with(AnnotationPrefilter::new)
                .with(new ErrorListener(starter))
                .with(Boolean.getBoolean("effectful.debug.bytebuddy") ? AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly() : AgentBuilder.Listener.NoOp.INSTANCE)
                .ignore(any(), isBootstrapClassLoader())
                .or(nameStartsWith("net.bytebuddy.").or(nameStartsWith("dev.effectful.agent.installer.")).or(nameStartsWith("jdk."))
                        .or(nameStartsWith("com.sun.proxy.")).or(nameContains("$Proxy")).or(isSynthetic()))
                .type(declaresMethod(isAnnotatedWith(named(TOOL_ANNOTATION))))
                .transform((builder, type, loader, module, domain) -> builder.visit(Advice.to(ToolAdvice.class)
                        .on(isMethod().and(isAnnotatedWith(named(TOOL_ANNOTATION)))
                                .and(not(isBridge())).and(not(isAbstract())).and(not(isNative())))))
                .installOn(inst);
    }

    /** A class that cannot be rewritten runs unguarded; say so once per class, never fail the load. */
    private static final class ErrorListener extends AgentBuilder.Listener.Adapter {
        private final EngineStarter starter;

        ErrorListener(EngineStarter starter) {
            this.starter = starter;
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
            AgentLog.errorOnce("transform:" + typeName, "effectful could not rewrite " + typeName
                    + "; its tools run unguarded", t);
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                                     DynamicType dynamicType) {
            AgentLog.debug("effectful rewrote " + type.getName());
            // the application has tools: open the journal and rebuild the index before the first call
            starter.startInBackground();
        }
    }
}
