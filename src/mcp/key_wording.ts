/**
 * Where the model is told a player's GW2 key comes from. The tools' texts say the token mode's
 * way - the `X-GW2-Key` header of the client configuration - and the token mode's `tools/list`
 * is exactly theirs. In the public mode every player signs in and the hosts there (claude.ai,
 * ChatGPT, ...) cannot send a custom header, so a model told about one would ask the player to
 * configure what cannot be configured: there each mention names the sign-in instead, in the
 * descriptions and the input schemas alike. The choice is the deployment's, the same for every
 * caller, so the lists stay cacheable as public. Pure.
 *
 * @module
 */

import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { deepFreeze } from "./schema.ts";

/** Where the wording says keys come from: the header (token mode) or the sign-in (public mode). */
export type KeyWording = "header" | "sign-in";

/** The token mode's phrases and what the public mode says instead, most specific first. */
const SIGNED_IN: readonly (readonly [RegExp, string])[] = [
  [/key from the X-GW2-Key header/g, "key from your sign-in"],
  [/the X-GW2-Key header/g, "your sign-in"],
  [/X-GW2-Key/g, "sign-in key"],
];

/**
 * `text` as the public mode words it: each mention of the `X-GW2-Key` header names the sign-in.
 *
 * @example
 * ```ts
 * signedInText("your wallet (key from the X-GW2-Key header)"); // "your wallet (key from your sign-in)"
 * ```
 */
export function signedInText(text: string): string {
  let worded = text;
  for (const [phrase, replacement] of SIGNED_IN) worded = worded.replace(phrase, replacement);
  return worded;
}

/**
 * `schema` publishing its JSON Schema in the public mode's words (its descriptions through
 * {@linkcode signedInText}); validation is the schema's own.
 */
export function signedInSchema(schema: StandardSchemaWithJSON): StandardSchemaWithJSON {
  const standard = schema["~standard"];
  const memo = new Map<string, Record<string, unknown>>();
  const worded = (io: "input" | "output", options: JsonSchemaOptions) => {
    const key = `${io} ${options.target}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // The replacements put no character into the JSON text that would need escaping.
    const json: Record<string, unknown> = deepFreeze(
      JSON.parse(signedInText(JSON.stringify(standard.jsonSchema[io](options)))),
    );
    memo.set(key, json);
    return json;
  };
  return {
    "~standard": {
      version: 1,
      vendor: standard.vendor,
      validate: (value) => standard.validate(value),
      jsonSchema: {
        input: (options) => worded("input", options),
        output: (options) => worded("output", options),
      },
    },
  };
}

type JsonSchemaOptions = Parameters<
  StandardSchemaWithJSON["~standard"]["jsonSchema"]["input"]
>[0];
