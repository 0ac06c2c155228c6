/**
 * Renders `docs/tools.md` from the tool registry, so the documented contract is the advertised
 * one: names, titles, descriptions, input parameters and result shapes come from the same
 * definitions and the same published JSON Schema the server sends in `tools/list`; the views
 * (`resources/list`) and the prompts (`prompts/list`) likewise from theirs.
 * `tests/mcp/docs_test.ts` fails when the committed file differs from this rendering.
 *
 * @module
 */

import { isCompletable } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { PromptDefinition } from "../prompts/mod.ts";
import type { ToolDefinition } from "../tools/types.ts";
import type { ViewDefinition } from "../views/mod.ts";
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
      // A row the schema leaves open (its fields named in the description).
      if (fields.length === 0) return "object";
      return `{${fields.join(", ")}}`;
    }
    case "array": {
      const bounds = schema.minItems !== undefined || schema.maxItems !== undefined
        ? ` (${schema.minItems ?? 0}\u2013${schema.maxItems ?? "\u221E"} items)`
        : "";
      const item = typeOf(schema.items);
      return `${item.includes(" ") && !item.startsWith("{") ? `(${item})` : item}[]${bounds}`;
    }
    case "integer":
      if (schema.exclusiveMinimum === 0) return "positive integer";
      return typeof schema.minimum === "number" && typeof schema.maximum === "number"
        ? `integer ${schema.minimum}\u2013${schema.maximum}`
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
  const notes = outputNotes(output);
  return [
    `## \`${tool.name}\` \u2014 ${tool.title}`,
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
    ...notes,
    ...(notes.length > 0 ? [""] : []),
    `**Annotations**: ${hints}`,
    "",
    ...(tool.view === undefined
      ? []
      : [`**View**: \`${tool.view}\` (MCP Apps; see [Views](#views)).`, ""]),
  ].join("\n");
}

/** The surfaces besides tools that `docs/tools.md` documents. */
export interface DocumentedSurfaces {
  readonly views?: readonly ViewDefinition[];
  readonly prompts?: readonly PromptDefinition[];
}

/** The views section: each `ui://` resource, what it shows, its size. */
export function renderViews(
  views: readonly ViewDefinition[],
  tools: readonly ToolDefinition[],
): string {
  const rows = views.map((view) => {
    const linked = tools.filter((tool) => tool.view === view.uri).map((tool) => `\`${tool.name}\``);
    const kb = Math.ceil(new TextEncoder().encode(view.html).byteLength / 1024);
    return `| \`${view.uri}\` | ${linked.join(", ")} | ${view.description} | \u2264 ${kb} KB |`;
  });
  return [
    "## Views",
    "",
    "MCP Apps views (`io.modelcontextprotocol/ui`): a tool's `_meta.ui.resourceUri` names a `ui://`",
    "resource that `resources/list` lists and `resources/read` serves as one self-contained HTML",
    "document (`text/html;profile=mcp-app`; nothing fetched, resource `_meta.ui.csp` empty). A host",
    "that renders views draws the tool's result with it; every other host shows the same result",
    "as without one. See [clients.md](clients.md) for the hosts that render them.",
    "",
    "| resource | view of | shows | size |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** The prompts section: each prompt, its arguments, which complete. */
export function renderPrompts(prompts: readonly PromptDefinition[]): string {
  const sections = prompts.map((prompt) => {
    const args = prompt.args({});
    const schema = z.toJSONSchema(args);
    const properties = isRecord(schema.properties) ? schema.properties : {};
    const completable = Object.entries(args.shape).filter(([, field]) =>
      isCompletable(field instanceof z.ZodOptional ? field.unwrap() : field)
    ).map(([name]) => name);
    const rows = Object.entries(properties).map(([name, sub]) => {
      const description = isRecord(sub) && typeof sub.description === "string"
        ? sub.description
        : "";
      return `| \`${name}\` | ${description} | ${completable.includes(name) ? "yes" : "no"} |`;
    });
    return [
      `### \`${prompt.name}\` \u2014 ${prompt.title}`,
      "",
      `> ${prompt.description}`,
      "",
      ...(rows.length === 0
        ? ["No arguments."]
        : ["| argument (optional) | meaning | completes |", "|---|---|---|", ...rows]),
      "",
    ].join("\n");
  });
  return [
    "## Prompts",
    "",
    "The common plans as prompts (`prompts/list`, `prompts/get`; Claude Code offers them as slash",
    "commands). Each expands to one user message naming the tools to call and in which order. Every",
    "argument is an optional string; `completion/complete` completes legendary names (the curated",
    "list) and item names (the item-name index), ranked as `priory_item_search` ranks.",
    "",
    ...sections,
  ].join("\n");
}

/** The tools that take `lang` (their published input schema has it). */
function languageTools(tools: readonly ToolDefinition[]): string[] {
  return tools.filter((tool) => {
    const input = leanSchema(tool.inputSchema)["~standard"].jsonSchema.input(OPTIONS);
    return isRecord(input.properties) && "lang" in input.properties;
  }).map((tool) => `\`${tool.name}\``);
}

/** The whole of `docs/tools.md`: the tools, then the views and prompts when given. */
export function renderToolsDoc(
  tools: readonly ToolDefinition[],
  surfaces: DocumentedSurfaces = {},
): string {
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
    "retry), not found (naming the ids), GW2 API unavailable (what happened and what to do), and \u2014",
    "for account tools \u2014 a missing `X-GW2-Key` header, a rejected key or a missing permission.",
    "A result served from cache because the GW2 API failed carries `stale_age_s`.",
    "",
    `Tools: ${tools.map((tool) => `\`${tool.name}\``).join(", ")}.`,
    "",
    "**Languages.** GW2 names things in `en`, `de`, `fr`, `es` and `zh`. The tools that name things",
    `(${
      languageTools(tools).join(", ")
    }) take an optional \`lang\` (default \`en\`) and name items,`,
    "currencies and material categories in it; nothing else in a result depends on it.",
    "`priory_item_search` matches its query against the names in all five languages at once (any",
    "case, accents or none, `ß`/`ss`, `\u0153`/`oe`, a typo; Chinese by any part of a name) and, without",
    "`lang`, says on each match which language its name is in; with `lang`, names every match in that",
    "one (a match without a name in it keeps the one it matched, and says which). The curated",
    "legendary list keeps its English name where no localized one is known, and says so (`lang`).",
    "",
    ...tools.map(renderTool),
    ...(surfaces.views === undefined ? [] : [renderViews(surfaces.views, tools)]),
    ...(surfaces.prompts === undefined ? [] : [renderPrompts(surfaces.prompts)]),
  ].join("\n");
}
