package dev.effectful.agent.installer;

import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static net.bytebuddy.matcher.ElementMatchers.annotationType;
import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * Matches a method that implements or overrides an {@code @EffectfulTool} method of a supertype,
 * at any depth, through the class's type pool: the supertypes are read as class files, not loaded.
 * Supertypes are seen with their type arguments, so {@code pay(String)} in a class implementing
 * {@code Port<String>} matches {@code Port.pay(T)}; the bridge javac adds for it is left alone.
 */
final class InheritedToolMatcher implements ElementMatcher<MethodDescription> {

    @Override
    public boolean matches(MethodDescription m) {
        if (m.isStatic() || m.isPrivate() || m.isConstructor() || m.isTypeInitializer()) {
            return false;
        }
        return inherits(m.getDeclaringType(), m, new HashSet<>());
    }

    private static boolean inherits(TypeDefinition type, MethodDescription m, Set<String> seen) {
        List<TypeDescription.Generic> supers = new ArrayList<>();
        TypeDescription.Generic superClass = type.getSuperClass();
        if (superClass != null) {
            supers.add(superClass);
        }
        supers.addAll(type.getInterfaces());
        for (TypeDescription.Generic s : supers) {
            String name = s.asErasure().getInternalName();
            if (ClassHeader.isJdk(name) || !seen.add(name)) {
                continue;
            }
            try {
                if (declares(s, m) || inherits(s, m, seen)) {
                    return true;
                }
            } catch (IllegalStateException unresolvable) {
                // a supertype whose class file no one serves: it cannot be inspected, so it adds nothing
                dev.effectful.core.log.AgentLog.debug("effectful could not read " + name.replace('/', '.')
                        + " while weaving " + m.getDeclaringType().getTypeName() + ": " + unresolvable.getMessage());
            }
        }
        return false;
    }

    private static boolean declares(TypeDescription.Generic type, MethodDescription m) {
        for (MethodDescription c : type.getDeclaredMethods()) {
            if (c.isStatic() || c.isPrivate() || c.isBridge() || !c.getInternalName().equals(m.getInternalName())
                    || c.getParameters().size() != m.getParameters().size()) {
                continue;
            }
            // erasures after the supertype's type arguments are applied
            if (c.getParameters().asTypeList().asErasures().equals(m.getParameters().asTypeList().asErasures())
                    && annotated(c)) {
                return true;
            }
        }
        return false;
    }

    /** By the annotation's name: the API's class may not be loadable from where the method's class is. */
    private static boolean annotated(MethodDescription c) {
        return !c.getDeclaredAnnotations().filter(annotationType(named(ToolWeaving.TOOL_ANNOTATION))).isEmpty();
    }
}
