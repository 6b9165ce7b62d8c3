package dev.effectful.agent.integration;

import dev.effectful.core.journal.Kind;
import dev.effectful.core.log.AgentLog;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The hints of a guarded tool's declared kind on the tool an MCP server registers ({@code McpSchema.Tool},
 * whose {@code annotations} are {@code McpSchema.ToolAnnotations}), so {@code tools/list} tells a client
 * what calling it does. The kind's hints are {@link Kind#toolHints()}; this class only writes them down.
 *
 * <ul>
 *   <li>An author's hint the kind makes no claim about, or that agrees with it, is kept. One that contradicts
 *       the kind ({@code readOnlyHint: true} on a MONEY tool) is replaced by the kind's, with one warning line
 *       per tool: the declared kind is what the journal acts on, so it is what the client is told.</li>
 *   <li>{@code openWorldHint}: as the author set it; unset, {@code true} when the tool declares a key header
 *       or a probe (it talks to a service outside).</li>
 * </ul>
 *
 * <p>The SDK is the application's and its records differ between versions (1.x and 2.x: the input schema's
 * type, icons), so both records are read and rebuilt through their record components, by name: the rewrite
 * names no SDK type. Anything unexpected leaves the tool as its author wrote it.
 */
public final class McpToolHints {

    private static final String READ_ONLY = "readOnlyHint";
    private static final String DESTRUCTIVE = "destructiveHint";
    private static final String IDEMPOTENT = "idempotentHint";
    private static final String OPEN_WORLD = "openWorldHint";

    private final boolean enabled;
    private final ToolDeclarations declarations;

    /**
     * @param enabled      {@code effectful.mcp.hints}
     * @param declarations the guarded tools, by the name they are listed under
     */
    public McpToolHints(boolean enabled, ToolDeclarations declarations) {
        this.enabled = enabled;
        this.declarations = declarations;
    }

    /**
     * {@code tool} with the hints of the guarded tool of its name, as a new record of its class; {@code tool}
     * itself when hints are off, no guarded tool has its name, the hints are there already, or anything fails.
     */
    public Object hinted(Object tool) {
        if (!enabled || tool == null) {
            return tool;
        }
        String name = null;
        try {
            Class<?> type = tool.getClass();
            if (!type.isRecord()) {
                return tool;
            }
            RecordComponent[] components = type.getRecordComponents();
            int nameAt = indexOf(components, "name");
            int annotationsAt = indexOf(components, "annotations");
            if (nameAt < 0 || annotationsAt < 0 || !components[annotationsAt].getType().isRecord()) {
                return tool;
            }
            name = (String) components[nameAt].getAccessor().invoke(tool);
            ToolDeclaration declared = declaration(name);
            Kind kind = declared == null ? null : Kind.fromWord(declared.kind().toLowerCase(Locale.ROOT));
            if (kind == null) {
                return tool;
            }
            Object authored = components[annotationsAt].getAccessor().invoke(tool);
            Object annotations = hinted(components[annotationsAt].getType(), authored, kind, declared);
            if (annotations == authored) {
                return tool;
            }
            Object[] values = values(components, tool);
            values[annotationsAt] = annotations;
            return canonical(type, components).newInstance(values);
        } catch (Throwable t) {
            // the tool is listed as its author wrote it; its calls are guarded all the same
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException i && i.getCause() != null ? i.getCause() : t;
            AgentLog.errorOnce("mcp-hints-failed:" + name, "effectful could not add the hints of its kind to MCP tool " + name
                    + "; it is listed as its author wrote it", cause);
            return tool;
        }
    }

    /**
     * The one declaration listed as {@code name}; of several (the same name declared on more than one method)
     * the one whose kind is furthest from harmless, so the client is never told a tool is safer than one of them.
     */
    private ToolDeclaration declaration(String name) {
        if (name == null) {
            return null;
        }
        List<ToolDeclaration> all = declarations.named(name);
        if (all.isEmpty()) {
            return null;
        }
        ToolDeclaration chosen = all.stream().max(Comparator.comparingInt(McpToolHints::severity)).orElseThrow();
        if (all.stream().map(ToolDeclaration::kind).distinct().count() > 1) {
            AgentLog.warnOnce("mcp-hints-kinds:" + name, "MCP tool " + name + " is the name of tools of"
                    + " different kinds (" + String.join(", ", all.stream().map(d -> d.declaring() + " " + d.kind()).toList())
                    + "); tools/list carries the hints of " + chosen.kind());
        }
        return chosen;
    }

    private static int severity(ToolDeclaration d) {
        Kind k = Kind.fromWord(d.kind().toLowerCase(Locale.ROOT));
        return k == null ? -1 : k.ordinal();
    }

    /** The annotations record with the kind's hints; {@code authored} itself when it says all of them already. */
    private static Object hinted(Class<?> type, Object authored, Kind kind, ToolDeclaration declared) throws Exception {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = authored == null ? new Object[components.length] : values(components, authored);
        Kind.ToolHints hints = kind.toolHints();
        List<String> contradicted = new ArrayList<>();
        boolean changed = false;
        changed |= set(components, values, READ_ONLY, hints.readOnly(), contradicted);
        changed |= set(components, values, DESTRUCTIVE, hints.destructive(), contradicted);
        changed |= set(components, values, IDEMPOTENT, hints.idempotent(), contradicted);
        int openWorld = indexOf(components, OPEN_WORLD);
        if (declared.outside() && openWorld >= 0 && values[openWorld] == null) {
            values[openWorld] = Boolean.TRUE;
            changed = true;
        }
        if (!changed) {
            return authored;
        }
        if (!contradicted.isEmpty()) {
            AgentLog.warnOnce("mcp-hints:" + declared.name(), "MCP tool " + declared.name() + " says "
                    + String.join(", ", contradicted) + ", but its @EffectfulTool kind is " + kind.name() + " ("
                    + declared.declaring() + "): tools/list says what the kind does (" + describe(hints) + ")");
        }
        return canonical(type, components).newInstance(values);
    }

    /** Sets the hint {@code name} to the kind's {@code value} (null: no claim, the author's stands); true if it changed. */
    private static boolean set(RecordComponent[] components, Object[] values, String name, Boolean value,
                               List<String> contradicted) {
        int i = indexOf(components, name);
        if (value == null || i < 0 || components[i].getType() != Boolean.class || value.equals(values[i])) {
            return false;
        }
        if (values[i] != null) {
            contradicted.add(name + ": " + values[i]);
        }
        values[i] = value;
        return true;
    }

    private static String describe(Kind.ToolHints hints) {
        List<String> out = new ArrayList<>();
        out.add(READ_ONLY + ": " + hints.readOnly());
        if (hints.destructive() != null) {
            out.add(DESTRUCTIVE + ": " + hints.destructive());
        }
        if (hints.idempotent() != null) {
            out.add(IDEMPOTENT + ": " + hints.idempotent());
        }
        return String.join(", ", out);
    }

    private static int indexOf(RecordComponent[] components, String name) {
        for (int i = 0; i < components.length; i++) {
            if (components[i].getName().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static Object[] values(RecordComponent[] components, Object record) throws Exception {
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            values[i] = components[i].getAccessor().invoke(record);
        }
        return values;
    }

    private static Constructor<?> canonical(Class<?> type, RecordComponent[] components) throws NoSuchMethodException {
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
        }
        return type.getDeclaredConstructor(types);
    }
}
