package dev.effectful.agent.integration;

/**
 * A guarded tool as its class file declares it, for what a tool listing says of it: the name a server
 * lists it under, its declared kind, and whether it reaches an outside service the agent can tell of.
 *
 * @param name      a name the tool is listed under: its verb ({@code @EffectfulTool(name)}, default the
 *                  method's name), or the name a framework's own tool annotation on the same method gives
 * @param kind      the {@code EffectKind} constant's name ({@code "MONEY"})
 * @param outside   it declares a key header (its HTTP requests carry the intent key to the receiver) or a
 *                  probe (it asks the receiver whether the effect landed): it talks to a service outside
 * @param declaring the method, {@code a.b.C.m}, for the log
 */
public record ToolDeclaration(String name, String kind, boolean outside, String declaring) {
}
