package dev.effectful.agent.integration;

import dev.effectful.agent.LogLines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hint rewrite on records shaped as the SDK's ({@code McpSchema.Tool} of 1.x, whose input schema is a
 * record, and of 2.x, a map with icons; {@code ToolAnnotations}), read and rebuilt by their components.
 */
class McpToolHintsTest {

    /** {@code McpSchema.ToolAnnotations}, both versions. */
    public record Annotations(String title, Boolean readOnlyHint, Boolean destructiveHint, Boolean idempotentHint,
                              Boolean openWorldHint, Boolean returnDirect) {
    }

    /** {@code McpSchema.Tool} of 2.x. */
    public record Tool2(String name, String title, String description, Map<String, Object> inputSchema,
                        Map<String, Object> outputSchema, Annotations annotations, Map<String, Object> meta,
                        List<Object> icons) {
    }

    /** {@code McpSchema.Tool} of 1.x. */
    public record Tool1(String name, String title, String description, Schema inputSchema,
                        Map<String, Object> outputSchema, Annotations annotations, Map<String, Object> meta) {
    }

    public record Schema(String type) {
    }

    private List<String> lines;

    @BeforeEach
    void captureLog() {
        lines = LogLines.capture();
    }

    @AfterEach
    void restoreLog() {
        LogLines.restore();
    }

    private static McpToolHints hints(ToolDeclaration... declared) {
        return new McpToolHints(true, name -> List.of(declared).stream().filter(d -> d.name().equals(name)).toList());
    }

    private static Tool2 tool2(String name, Annotations a) {
        return new Tool2(name, null, "d", Map.of("type", "object"), null, a, Map.of("k", "v"), List.of("icon"));
    }

    @Test
    void everyKindGetsTheHintsOfTheTableAndNothingElseChanges() {
        McpToolHints h = hints(new ToolDeclaration("get", "READ", false, "T.get"),
                new ToolDeclaration("put", "IDEMPOTENT", false, "T.put"),
                new ToolDeclaration("create", "CREATE", false, "T.create"),
                new ToolDeclaration("send", "SEND", false, "T.send"),
                new ToolDeclaration("charge", "MONEY", false, "T.charge"),
                new ToolDeclaration("delete", "DESTRUCTIVE", false, "T.delete"));
        Map<String, Annotations> expected = Map.of(
                "get", new Annotations(null, true, null, null, null, null),
                "put", new Annotations(null, false, false, true, null, null),
                "create", new Annotations(null, false, false, false, null, null),
                "send", new Annotations(null, false, false, false, null, null),
                "charge", new Annotations(null, false, true, false, null, null),
                "delete", new Annotations(null, false, true, false, null, null));
        expected.forEach((name, annotations) -> {
            Tool2 before = tool2(name, null);
            Tool2 after = (Tool2) h.hinted(before);
            assertThat(after.annotations()).as(name).isEqualTo(annotations);
            assertThat(new Tool2(after.name(), after.title(), after.description(), after.inputSchema(),
                    after.outputSchema(), null, after.meta(), after.icons())).as("the rest of " + name).isEqualTo(before);
        });
        assertThat(lines).noneMatch(l -> l.startsWith("WARN") || l.startsWith("ERROR"));
    }

    @Test
    void anAuthorsHintThatContradictsTheKindIsReplacedWithOneLineAndTheRestIsKept() {
        McpToolHints h = hints(new ToolDeclaration("charge_card", "MONEY", false, "Pay.charge"));
        Annotations authored = new Annotations("Charge", true, null, null, false, true);

        Tool2 hinted = (Tool2) h.hinted(tool2("charge_card", authored));
        h.hinted(tool2("charge_card", authored));
        // the SDK turns a synchronous specification into an asynchronous one with the same, now hinted, tool
        assertThat(h.hinted(hinted)).isSameAs(hinted);

        assertThat(hinted.annotations()).isEqualTo(new Annotations("Charge", false, true, false, false, true));
        assertThat(lines).filteredOn(l -> l.startsWith("WARN")).singleElement().satisfies(l -> assertThat(l)
                .contains("charge_card", "readOnlyHint: true", "MONEY", "Pay.charge", "destructiveHint: true"));
    }

    @Test
    void anAuthorsHintTheKindAgreesWithOrMakesNoClaimAboutIsKeptSilently() {
        McpToolHints h = hints(new ToolDeclaration("search", "READ", false, "T.search"));
        Annotations authored = new Annotations(null, true, false, true, true, null);

        Tool2 tool = tool2("search", authored);
        assertThat(h.hinted(tool)).as("nothing to add: the same object").isSameAs(tool);
        assertThat(lines).isEmpty();
    }

    @Test
    void openWorldIsTrueForAToolWithAKeyHeaderOrAProbeUnlessTheAuthorSaidOtherwise() {
        McpToolHints h = hints(new ToolDeclaration("charge", "MONEY", true, "T.charge"),
                new ToolDeclaration("note", "CREATE", false, "T.note"));
        assertThat(((Tool2) h.hinted(tool2("charge", null))).annotations().openWorldHint()).isTrue();
        assertThat(((Tool2) h.hinted(tool2("charge", new Annotations(null, null, null, null, false, null))))
                .annotations().openWorldHint()).as("the author's word").isFalse();
        assertThat(((Tool2) h.hinted(tool2("note", null))).annotations().openWorldHint()).as("no claim").isNull();
    }

    @Test
    void theOneXShapeIsHintedTheSameWay() {
        McpToolHints h = hints(new ToolDeclaration("delete", "DESTRUCTIVE", false, "T.delete"));
        Tool1 before = new Tool1("delete", null, "d", new Schema("object"), null, null, null);
        Tool1 after = (Tool1) h.hinted(before);
        assertThat(after.annotations()).isEqualTo(new Annotations(null, false, true, false, null, null));
        assertThat(after.inputSchema()).isSameAs(before.inputSchema());
    }

    @Test
    void aToolNoGuardedToolIsNamedAfterOrHintsOffIsLeftAlone() {
        Tool2 tool = tool2("unguarded", null);
        assertThat(hints().hinted(tool)).isSameAs(tool);
        Tool2 charge = tool2("charge", null);
        assertThat(new McpToolHints(false, name -> List.of(new ToolDeclaration("charge", "MONEY", true, "T.c")))
                .hinted(charge)).isSameAs(charge);
    }

    @Test
    void theSameNameOnToolsOfDifferentKindsIsListedAsTheLeastHarmlessWithAWarning() {
        McpToolHints h = hints(new ToolDeclaration("update", "IDEMPOTENT", false, "A.update"),
                new ToolDeclaration("update", "DESTRUCTIVE", false, "B.update"));
        assertThat(((Tool2) h.hinted(tool2("update", null))).annotations().destructiveHint()).isTrue();
        assertThat(lines).filteredOn(l -> l.startsWith("WARN")).singleElement().satisfies(l -> assertThat(l)
                .contains("A.update IDEMPOTENT", "B.update DESTRUCTIVE"));
    }

    /** A record whose canonical constructor throws: the rewrite fails, the tool stays as written, one line says so. */
    public record Picky(String name, Annotations annotations) {
        public Picky {
            if (annotations != null) {
                throw new IllegalStateException("no annotations here");
            }
        }
    }

    @Test
    void aRewriteThatFailsLeavesTheToolAsItsAuthorWroteIt() {
        Picky tool = new Picky("charge", null);
        assertThat(hints(new ToolDeclaration("charge", "MONEY", false, "T.c")).hinted(tool)).isSameAs(tool);
        assertThat(lines).filteredOn(l -> l.startsWith("ERROR")).singleElement().satisfies(l -> assertThat(l)
                .contains("charge", "as its author wrote it"));
        assertThat(hints().hinted("not a record")).isEqualTo("not a record");
    }
}
