import assert from "node:assert/strict";
import { renderToolsDoc, typeOf } from "../../src/mcp/docs.ts";
import { PROMPTS } from "../../src/prompts/mod.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { VIEWS } from "../../src/views/mod.ts";

const DOC = new URL("../../docs/tools.md", import.meta.url);

/**
 * The text without formatting: `deno fmt` rewraps prose and pads tables (differently across
 * Deno versions), which must not make the check fail.
 */
function content(markdown: string): string {
  return markdown.split("\n").filter((line) => !/^\|[\s|:-]+\|$/.test(line.trim()))
    .map((line) => line.replace(/^\s*>\s?/, "")).join("").replace(/\s+/g, "");
}

Deno.test("docs/tools.md is the rendering of the registry (UPDATE_SNAPSHOTS=1 regenerates it)", async () => {
  const rendered = renderToolsDoc(TOOLS, { views: VIEWS, prompts: PROMPTS });
  if (Deno.env.get("UPDATE_SNAPSHOTS") === "1") {
    await Deno.writeTextFile(DOC, rendered);
    const fmt = new Deno.Command(Deno.execPath(), {
      args: ["fmt", "--quiet", DOC.pathname],
      stdout: "null",
      stderr: "null",
    });
    assert.ok((await fmt.output()).success, "deno fmt docs/tools.md");
  }
  const committed = await Deno.readTextFile(DOC);
  assert.ok(
    content(committed) === content(rendered),
    "docs/tools.md is stale: rerun with UPDATE_SNAPSHOTS=1",
  );
});

Deno.test("typeOf() renders JSON Schema compactly", () => {
  assert.equal(
    typeOf({
      type: "object",
      properties: {
        ids: { type: "array", items: { type: "integer", exclusiveMinimum: 0 }, maxItems: 100 },
        stale: { type: "number" },
      },
      required: ["ids"],
    }),
    "{ids: (positive integer)[] (0–100 items), stale?: number}",
  );
  assert.equal(
    typeOf({
      type: "object",
      properties: {
        quantity: { type: "integer", minimum: 1, maximum: 250 },
        type: { type: "string", enum: ["weapon", "armor"] },
        profit: { type: ["number", "null"] },
      },
    }),
    '{quantity?: integer 1–250, type?: "weapon" | "armor", profit?: number | null}',
  );
});
