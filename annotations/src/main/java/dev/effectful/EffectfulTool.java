package dev.effectful;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a tool method whose calls the Effectful agent journals, classifies and deduplicates.
 *
 * <p>Without the agent the method runs unchanged. With {@code -javaagent:effectful-agent.jar}
 * every call derives an intent key from the task, the actor, {@link #name()}, the
 * {@link IntentKey} arguments and the {@link Slot}, writes an {@code intent} record before the
 * body runs and an {@code outcome} record after, and turns exceptions into an {@link Outcome}.
 *
 * <!-- compile: members -->
 * <pre>{@code
 * @EffectfulTool(kind = EffectKind.SEND, name = "send_email", probe = "findSentEmail")
 * String sendEmail(@IntentKey String orderId, String subject, String body) { ... }
 *
 * Optional<String> findSentEmail(String orderId, String subject, String body) { ... }
 * }</pre>
 *
 * <p>An implementation or override of a method annotated on an interface or a superclass is guarded
 * as that method declares, parameter annotations included; the implementation's own
 * {@code @EffectfulTool}, when it has one, wins. The Java language does not inherit method
 * annotations, so the agent looks them up along the supertypes itself.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface EffectfulTool {

    /** The kind of effect; decides the re-entry rules. */
    EffectKind kind();

    /** The verb in the intent key and the journal's {@code call} field; default: the method's name. */
    String name() default "";

    /**
     * Name of a method of the same class with the same parameter types that looks for the effect
     * of an earlier attempt. It runs before an intent whose outcome is unknown is attempted again.
     * For a tool returning {@code T} it returns {@code T} (the boxed type for a primitive
     * {@code T}), {@code Optional<T>}, or {@code boolean}/{@code Boolean}: {@code null}, an empty
     * {@code Optional} or {@code false} when the effect is absent (the body runs), the value to
     * return to the caller when it is present, or {@code true} for "present, no value" (the caller
     * gets ok without the original result). A probe of another type is not used, and the agent
     * says so when the tool is first called.
     */
    String probe() default "";

    /**
     * Name of a method of the same class that checks a returned value before it counts as ok:
     * it takes one parameter of the tool's return type and throws when the value reports a
     * failure (a 200 whose body says error). What it throws is classified like an exception
     * from the body, and a thrown {@link ToolOutcomeException} is taken as the outcome itself.
     */
    String check() default "";

    /**
     * True when the receiver deduplicates on {@code Attempt.current().intentKey()}: a tool of any kind
     * whose outcome is unknown may then run again with the same key (your promise; the agent cannot check it).
     */
    boolean keyable() default false;

    /**
     * An HTTP header name, such as {@code "Idempotency-Key"}: every request the tool's body sends on its
     * own thread through the JDK {@code HttpClient}, {@code HttpURLConnection} or OkHttp carries the
     * intent key in that header (a batch item's key inside {@link Attempt#sending}), unless the
     * application set that header itself. Services that deduplicate on such a header (Stripe, Adyen,
     * PayPal, Square) then do it for the tool: an attempt whose key a covered client was seen sending (the
     * journal's {@code key_sent} record) runs again with the same key after an unknown outcome, whatever its
     * kind; one whose key was not seen leaving is probed or held for a person, as without a key header.
     * Empty (the default): no header is added. Other clients: send {@link Attempt#requestKey()} yourself.
     */
    String keyHeader() default "";

    /**
     * {@link Approval#REQUIRED}: a person approves each new intent of this tool before its body first runs
     * (see {@link Approval}). The default, {@link Approval#NONE}, still requires one when the configuration
     * {@code effectful.approval} lists the tool's name or kind.
     */
    Approval approval() default Approval.NONE;

    /** Refuse to start when less task budget than this is left (milliseconds; 0 = no floor). */
    long floorMillis() default 0;

    /** Per-attempt cap in milliseconds; 0 = the task budget only. */
    long timeoutMillis() default 0;

    /** Exceptions (and their subclasses) that mean "permanent, effect no" for this tool. */
    Class<? extends Throwable>[] permanentOn() default {};

    /** Exceptions (and their subclasses) that mean "retryable, effect no" for this tool. */
    Class<? extends Throwable>[] retryableOn() default {};
}
