/**
 * Publishing zod schemas lean. The SDK advertises a tool's schemas by asking the schema for its
 * JSON Schema; this adapter asks zod and then removes what only costs context: the `$schema`
 * URI (2020-12 is MCP's default dialect), JavaScript's safe-integer bounds that zod adds to every
 * `.int()`, the `propertyNames: {type: "string"}` zod adds to every string-keyed record (JSON
 * object keys are strings anyway), and - in output schemas only - `additionalProperties: false`.
 * Validation is zod's, unchanged, so call-time behaviour and error messages are exactly zod's.
 *
 * It also publishes portably, for clients that map tool schemas onto a single-`type` dialect
 * (the OpenAPI subset of Gemini function declarations; the MCP Inspector's `--strict` check): a
 * nullable field's `type: ["number", "null"]` becomes `anyOf: [{type: "number"}, {type:
 * "null"}]`, and the `additionalProperties: {}` (and empty `properties`) of a loose object, which
 * constrain nothing, are dropped, leaving `{type: "object"}` - the same contract, spelt so that
 * every dialect reads it.
 *
 * Every token of `tools/list` is paid by every agent on every connection.
 *
 * @module
 */

import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { z } from "zod";

const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  maximum: Number.MAX_SAFE_INTEGER,
  minimum: Number.MIN_SAFE_INTEGER,
};

/**
 * Wraps a zod schema so its published JSON Schema is lean; validation is delegated to zod.
 *
 * @example
 * ```ts
 * server.registerTool("x", { inputSchema: leanSchema(z.strictObject({ id: z.number() })) }, ...);
 * ```
 */
export function leanSchema<S extends z.ZodType>(
  schema: S,
): StandardSchemaWithJSON<z.input<S>, z.output<S>> {
  const standard = schema["~standard"];
  // A fresh server per request asks again on every tools/list, and for the output schema on
  // every tools/call; the answer never changes. Keyed by target without building a string.
  const memo: Record<"input" | "output", Map<unknown, Record<string, unknown>>> = {
    input: new Map(),
    output: new Map(),
  };
  const convert = (io: "input" | "output", options: JsonSchemaOptions) => {
    let json = memo[io].get(options.target);
    if (json === undefined) {
      json = deepFreeze(prune(standard.jsonSchema[io](options), io));
      memo[io].set(options.target, json);
    }
    return json;
  };
  return {
    "~standard": {
      version: 1,
      vendor: "priory",
      validate: (value) => standard.validate(value),
      jsonSchema: {
        input: (options) => convert("input", options),
        output: (options) => convert("output", options),
      },
    },
  };
}

type JsonSchemaOptions = Parameters<
  StandardSchemaWithJSON["~standard"]["jsonSchema"]["input"]
>[0];

/** Freezes a JSON value at every depth, so a shared memoised schema cannot be altered. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Keywords whose value maps names to subschemas (the names themselves are not keywords). */
const SCHEMA_MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
]);

/**
 * A copy of the JSON Schema `node` without the context-only keywords, and with the portable
 * spelling of nullable types and free-form objects, at every depth.
 */
export function prune(
  node: Record<string, unknown>,
  io: "input" | "output",
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === "$schema") continue;
    if (SAFE_INTEGER_BOUNDS[keyword] === value) continue;
    if (io === "output" && keyword === "additionalProperties" && value === false) continue;
    if (keyword === "propertyNames" && isStringType(value)) continue;
    // `{}` allows any extra property, as an absent keyword does; empty `properties` names none.
    if (keyword === "additionalProperties" && isEmptyRecord(value)) continue;
    if (keyword === "properties" && isEmptyRecord(value)) continue;
    if (keyword === "type" && Array.isArray(value) && !("anyOf" in node)) {
      // One branch per type: a single-`type` dialect reads each; the meaning is the same.
      result.anyOf = value.map((type: unknown) => ({ type }));
      continue;
    }
    result[keyword] = SCHEMA_MAPS.has(keyword) && isRecord(value)
      ? Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, pruneSchema(schema, io)]),
      )
      : pruneSchema(value, io);
  }
  return result;
}

/** Prunes a value in schema position: a subschema, a list of subschemas, or a literal. */
function pruneSchema(value: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(value)) return value.map((entry) => pruneSchema(entry, io));
  return isRecord(value) ? prune(value, io) : value;
}

/** `{type: "string"}` and nothing else: as `propertyNames`, a constraint every key meets. */
function isStringType(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 1 && value.type === "string";
}

/** `{}`: as a schema, one that accepts anything; as `properties`, one that names nothing. */
function isEmptyRecord(value: unknown): boolean {
  return isRecord(value) && Object.keys(value).length === 0;
}

/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
