/**
 * Renders `docs/tools.md` from the tool registry, so the documented contract is the advertised
 * one: names, titles, descriptions, input parameters and result shapes come from the same
 * definitions and the same published JSON Schema the server sends in `tools/list`.
 * `tests/mcp/docs_test.ts` fails when the committed file differs from this rendering.
 *
 * @module
 */

import type { ToolDefinition } from "../tools/types.ts";
import { isRecord, leanSchema } from "./schema.ts";

type Json = Record<string, unknown>;

const OPTIONS = { target: "draft-2020-12" } as const;

/** A compact TypeScript-like rendering of a JSON Schema, e.g. `{ids: integer > 0 [1..100]}`. */
export function typeOf(schema: unknown): string {
  if (!isRecord(schema)) return "unknown";
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  }
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  // How the published schemas spell a nullable field (see `schema.ts`).
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map(typeOf).join(" | ");
  switch (schema.type) {
    case "object": {
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      const fields = Object.entries(properties).map(([name, sub]) =>
        `${name}${required.includes(name) ? "" : "?"}: ${typeOf(sub)}`
      );
      return `{${fields.join(", ")}}`;
    }
    case "array": {
      const bounds = schema.minItems !== undefined || schema.maxItems !== undefined
        ? ` (${schema.minItems ?? 0}–${schema.maxItems ?? "∞"} items)`
        : "";
      const item = typeOf(schema.items);
      return `${item.includes(" ") && !item.startsWith("{") ? `(${item})` : item}[]${bounds}`;
    }
    case "integer":
      if (schema.exclusiveMinimum === 0) return "positive integer";
      return typeof schema.minimum === "number" && typeof schema.maximum === "number"
        ? `integer ${schema.minimum}–${schema.maximum}`
        : "integer";
    default:
      return typeof schema.type === "string" ? schema.type : "unknown";
  }
}

function inputTable(schema: Json): string[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const rows = Object.entries(properties).map(([name, sub]) => {
    const description = isRecord(sub) && typeof sub.description === "string" ? sub.description : "";
    // A union's bars would split the Markdown cell.
    return `| \`${name}\` | ${typeOf(sub).replaceAll("|", "\\|")} | ${
      required.includes(name) ? "yes" : "no"
    } | ${description} |`;
  });
  if (rows.length === 0) return ["No parameters."];
  return ["| parameter | type | required | meaning |", "|---|---|---|---|", ...rows];
}

function outputNotes(schema: Json): string[] {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  return Object.entries(properties).flatMap(([name, sub]) =>
    isRecord(sub) && typeof sub.description === "string"
      ? [`- \`${name}\`: ${sub.description}.`]
      : []
  );
}

/** One tool's section. */
export function renderTool(tool: ToolDefinition): string {
  const input = leanSchema(tool.inputSchema)["~standard"].jsonSchema.input(OPTIONS);
  const output = leanSchema(tool.outputSchema)["~standard"].jsonSchema.output(OPTIONS);
  const hints = Object.entries(tool.annotations).map(([hint, value]) => `\`${hint}: ${value}\``)
    .join(", ");
  return [
    `## \`${tool.name}\` — ${tool.title}`,
    "",
    `> ${tool.description}`,
    "",
    "**Input**",
    "",
    ...inputTable(input),
    "",
    "**Result** (`structuredContent`, and the same JSON as one text block)",
    "",
    "```ts",
    typeOf(output),
    "```",
    "",
    ...outputNotes(output),
    ...(outputNotes(output).length > 0 ? [""] : []),
    `**Annotations**: ${hints}`,
    "",
  ].join("\n");
}

/** The whole of `docs/tools.md`. */
export function renderToolsDoc(tools: readonly ToolDefinition[]): string {
  return [
    "# Tools",
    "",
    "<!-- Generated from the tool registry (src/tools/mod.ts) by src/mcp/docs.ts; do not edit.",
    "     tests/mcp/docs_test.ts fails when this file is stale. Regenerate deliberately with",
    "     UPDATE_SNAPSHOTS=1 deno task test:files -->",
    "",
    "The tools this server advertises, in `tools/list` order. Every tool is read-only",
    "(`readOnlyHint: true`, `destructiveHint: false`, `idempotentHint: true`). A `gw2_` tool is a",
    "shaped pass-through of the official GW2 API; a `priory_` tool is this project's computation.",
    "",
    "Every result is `structuredContent` plus the same JSON, compact, as one text block. A failure",
    "is `isError: true` with one actionable text block and no `structuredContent`: invalid",
    "arguments (refused before any upstream call, naming the problem), rate limited (with when to",
    "retry), not found (naming the ids), GW2 API unavailable (what happened and what to do), and —",
    "for account tools — a missing `X-GW2-Key` header, a rejected key or a missing permission.",
    "A result served from cache because the GW2 API failed carries `stale_age_s`.",
    "",
    `Tools: ${tools.map((tool) => `\`${tool.name}\``).join(", ")}.`,
    "",
    ...tools.map(renderTool),
  ].join("\n");
}
