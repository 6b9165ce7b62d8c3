package dev.effectful.it.mcp;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.List;
import java.util.Optional;

/**
 * Six guarded tools of six kinds, served with the hints their authors wrote (some none, one contradicting
 * its kind, one agreeing), and one unguarded tool. Only {@code tools/list} is asked of them.
 */
public class HintTools {

    @EffectfulTool(kind = EffectKind.READ, name = "find_order")
    public String findOrder(@IntentKey String orderId) {
        return "order " + orderId;
    }

    @EffectfulTool(kind = EffectKind.IDEMPOTENT, name = "set_status")
    public String setStatus(@IntentKey String orderId) {
        return "status of " + orderId;
    }

    @EffectfulTool(kind = EffectKind.CREATE, name = "open_ticket")
    public String openTicket(@IntentKey String orderId) {
        return "ticket for " + orderId;
    }

    /** A probe asks the mail service whether it went out: a tool against an outside service. */
    @EffectfulTool(kind = EffectKind.SEND, name = "send_invoice", probe = "findInvoice")
    public String sendInvoice(@IntentKey String orderId) {
        return "invoice " + orderId;
    }

    Optional<String> findInvoice(String orderId) {
        return Optional.empty();
    }

    /** Its author calls it read-only, which a charge is not; its key header goes to the payment provider. */
    @EffectfulTool(kind = EffectKind.MONEY, name = "charge_card", keyHeader = "Idempotency-Key")
    public String chargeCard(@IntentKey String orderId) {
        return "charged " + orderId;
    }

    @EffectfulTool(kind = EffectKind.DESTRUCTIVE, name = "delete_account")
    public String deleteAccount(@IntentKey String accountId) {
        return "deleted " + accountId;
    }

    /** The tools as the server registers them, with their authors' own annotations. */
    static List<McpServerFeatures.SyncToolSpecification> specifications(HintTools tools) {
        return List.of(tool("find_order", null, a -> tools.findOrder(a)),
                tool("set_status", null, a -> tools.setStatus(a)),
                tool("open_ticket", null, a -> tools.openTicket(a)),
                tool("send_invoice", null, a -> tools.sendInvoice(a)),
                tool("charge_card", new McpSchema.ToolAnnotations("Charge a card", true, null, null, null, null),
                        a -> tools.chargeCard(a)),
                tool("delete_account", new McpSchema.ToolAnnotations(null, null, true, null, false, null),
                        a -> tools.deleteAccount(a)),
                tool("echo", new McpSchema.ToolAnnotations(null, true, null, null, null, null), a -> a));
    }

    interface Body {
        String run(String argument);
    }

    private static McpServerFeatures.SyncToolSpecification tool(String name, McpSchema.ToolAnnotations annotations, Body body) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).description(name)
                .inputSchema(McpJsonDefaults.getMapper(), "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .annotations(annotations).build();
        return McpServerFeatures.SyncToolSpecification.builder().tool(tool)
                .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                        .addTextContent(body.run((String) request.arguments().get("id"))).isError(false).build())
                .build();
    }
}
