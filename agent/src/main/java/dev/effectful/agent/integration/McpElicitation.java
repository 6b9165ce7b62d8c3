package dev.effectful.agent.integration;

import dev.effectful.runtime.approval.ApprovalAsker;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Approval by MCP elicitation ({@code effectful.approval.elicit}): while a server's tool handler serves a request,
 * the request's exchange is bound to the thread as an {@link ApprovalAsker}; an approval-required intent that the
 * handler's call requests asks the client's user ({@code elicitation/create}) when the client declared the
 * {@code elicitation} capability.
 *
 * <p>The SDK is the application's, and its request type differs between versions: 1.x has the record
 * {@code McpSchema.ElicitRequest(message, requestedSchema, meta)}, 2.x makes {@code ElicitRequest} an interface
 * whose form request is the record {@code McpSchema.ElicitFormRequest} with the same components. Both are built
 * through their record components, by name, so nothing here names an SDK type; the answer
 * ({@code ElicitResult}: {@code action}, {@code content}) is read the same way.
 *
 * <p>The wait is bounded by the engine's ({@code Mono.block(Duration)} on the asynchronous exchange, which the
 * synchronous one wraps: {@link #same} learns which); everything unexpected is "no answer", so the request waits for
 * the console and the CLI exactly as without a client to ask.
 */
public final class McpElicitation {

    /** The {@code via} word of a verdict given this way. */
    public static final String VIA = "elicitation";
    private static final String SCHEMA = "io.modelcontextprotocol.spec.McpSchema$";
    /** What the form asks besides accept and decline: a note, which a decline's refusal carries to the model. */
    private static final Map<String, Object> REQUESTED_SCHEMA = requestedSchema();

    private final boolean enabled;
    /** A synchronous exchange's asynchronous one, learned from its constructor: the one whose wait can be bounded. */
    private final Map<Object, Object> asyncOf = Collections.synchronizedMap(new WeakHashMap<>());

    /** @param enabled {@code effectful.approval.elicit} */
    public McpElicitation(boolean enabled) {
        this.enabled = enabled;
    }

    /** {@code sync} wraps {@code async} (the SDK's {@code McpSyncServerExchange(McpAsyncServerExchange)}). */
    void same(Object async, Object sync) {
        if (enabled && async != null && sync != null && sync.getClass().getName().endsWith("McpSyncServerExchange")) {
            asyncOf.put(sync, async);
        }
    }

    /**
     * Binds an asker for {@code channel}, the handler's first argument, to this thread; null when disabled or when
     * the channel cannot ask (a stateless server's transport context has no client to ask).
     */
    ApprovalAsker.Binding bind(Object channel) {
        if (!enabled || channel == null || !channel.getClass().getName().endsWith("ServerExchange")) {
            return null;
        }
        return ApprovalAsker.bind(new Asker(channel, asyncOf.get(channel)));
    }

    /** The exchange of one request, asked at most once per intent by the engine. */
    static final class Asker implements ApprovalAsker {
        private final Object exchange;
        /** The asynchronous exchange when known (its wait is bounded here); null: the exchange itself is asked. */
        private final Object async;

        Asker(Object exchange, Object async) {
            this.exchange = exchange;
            this.async = async;
        }

        @Override
        public String via() {
            return VIA;
        }

        @Override
        public Answer ask(Question question, Duration wait) {
            Object asked = async != null ? async : exchange;
            try {
                if (!declared(asked)) {
                    return new Answer.NotAnswered("the MCP client did not declare the elicitation capability");
                }
                Object request = request(asked.getClass().getClassLoader(), question.message());
                Method create = method(asked.getClass(), "createElicitation", request.getClass());
                if (create == null) {
                    return new Answer.NotAnswered("this MCP SDK's exchange cannot ask its client");
                }
                Object result = create.invoke(asked, request);
                if (result != null && !isRecord(result)) {
                    // a Mono: waited for within the engine's bound, and cancelled past it
                    Method block = publicMethod(result.getClass(), "block", Duration.class);
                    result = block.invoke(result, wait);
                }
                return answer(result);
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                String text = String.valueOf(cause.getMessage());
                if (cause instanceof IllegalStateException && text.startsWith("Timeout")
                        || cause instanceof java.util.concurrent.TimeoutException
                        || cause.getCause() instanceof java.util.concurrent.TimeoutException) {
                    return new Answer.NotAnswered("no answer within " + wait.toSeconds() + " s");
                }
                return new Answer.NotAnswered("the MCP client answered with an error ("
                        + cause.getClass().getSimpleName() + ": " + firstLine(text) + ")");
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return new Answer.NotAnswered("this MCP SDK's elicitation could not be used (" + e.getClass().getSimpleName()
                        + ")");
            }
        }

        /** Whether the client's capabilities, as it declared them at initialization, include {@code elicitation}. */
        private static boolean declared(Object exchange) throws ReflectiveOperationException {
            Method get = exchange.getClass().getMethod("getClientCapabilities");
            Object caps = get.invoke(exchange);
            if (caps == null) {
                return false;
            }
            Method elicitation = caps.getClass().getMethod("elicitation");
            return elicitation.invoke(caps) != null;
        }

        /** The SDK's form request: 2.x {@code ElicitFormRequest}, 1.x the record {@code ElicitRequest}. */
        private static Object request(ClassLoader sdk, String message) throws ReflectiveOperationException {
            Class<?> type;
            try {
                type = Class.forName(SCHEMA + "ElicitFormRequest", false, sdk);
            } catch (ClassNotFoundException e) {
                type = Class.forName(SCHEMA + "ElicitRequest", false, sdk);
            }
            if (!type.isRecord()) {
                throw new NoSuchMethodException(type.getName() + " is not a record");
            }
            RecordComponent[] components = type.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                switch (components[i].getName()) {
                    case "message" -> values[i] = message;
                    case "requestedSchema" -> values[i] = REQUESTED_SCHEMA;
                    default -> values[i] = null; // meta, and anything a later SDK adds, left unset
                }
            }
            return type.getDeclaredConstructor(types).newInstance(values);
        }

        private static Method method(Class<?> owner, String name, Class<?> argument) {
            for (Method m : owner.getMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == 1 && m.getParameterTypes()[0].isAssignableFrom(argument)) {
                    return m;
                }
            }
            return null;
        }

        /** The user's answer: accept approves, decline denies with their note, cancel (or nothing) is no answer. */
        private static Answer answer(Object result) throws ReflectiveOperationException {
            if (result == null) {
                return new Answer.NotAnswered("the MCP client sent no answer");
            }
            Object action = result.getClass().getMethod("action").invoke(result);
            Object content = result.getClass().getMethod("content").invoke(result);
            String note = content instanceof Map<?, ?> m && m.get("note") != null ? String.valueOf(m.get("note")) : null;
            String word = action instanceof Enum<?> e ? e.name() : String.valueOf(action);
            return switch (word.toUpperCase(java.util.Locale.ROOT)) {
                case "ACCEPT" -> new Answer.Approved(note);
                case "DECLINE" -> new Answer.Denied(note);
                case "CANCEL" -> new Answer.NotAnswered("the user cancelled");
                default -> new Answer.NotAnswered("the MCP client answered " + word);
            };
        }

        /**
         * {@code name(parameter)} as declared by the nearest public class of {@code type}: a Mono's concrete class is
         * package-private in Reactor, and a method found through it cannot be invoked from here.
         */
        private static Method publicMethod(Class<?> type, String name, Class<?> parameter) throws NoSuchMethodException {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                if (java.lang.reflect.Modifier.isPublic(c.getModifiers())) {
                    try {
                        return c.getMethod(name, parameter);
                    } catch (NoSuchMethodException e) {
                        // not on this one: look further up
                    }
                }
            }
            throw new NoSuchMethodException(type.getName() + "." + name);
        }

        private static boolean isRecord(Object o) {
            return o.getClass().isRecord();
        }

        private static String firstLine(String s) {
            int nl = s.indexOf('\n');
            return nl < 0 ? s : s.substring(0, nl);
        }
    }

    private static Map<String, Object> requestedSchema() {
        Map<String, Object> note = new LinkedHashMap<>();
        note.put("type", "string");
        note.put("title", "Note");
        note.put("description", "Why you decide so; journaled with your verdict, and a decline's note is what the"
                + " model is told");
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of("note", Collections.unmodifiableMap(note)));
        return Collections.unmodifiableMap(schema);
    }
}
