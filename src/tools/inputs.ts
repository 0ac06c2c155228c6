/**
 * Shared input and output schema pieces. Validation messages are written for the model that
 * sent the arguments: they name the problem, the value received and what to send instead, and
 * the SDK returns them as a tool error before any handler (or upstream call) runs.
 *
 * @module
 */

import { z } from "zod";
import { LANGUAGES } from "../gw2/types.ts";

/** The bound on every id list: one tool call costs at most one upstream batch (<= 200 ids). */
export const MAX_IDS = 100;

/**
 * Renders a received value for a validation message, briefly: a string cut at 40 characters, an
 * array or object only named, so a huge or deeply nested argument is never echoed back.
 */
export function received(input: unknown): string {
  if (typeof input === "string") return `the string ${JSON.stringify(input.slice(0, 40))}`;
  if (input === undefined) return "nothing";
  if (input === null || typeof input === "number" || typeof input === "boolean") {
    return String(input);
  }
  return Array.isArray(input) ? "an array" : "an object";
}

/**
 * A positive integer id. `kind` names what the id identifies, e.g. "item".
 *
 * @example
 * ```ts
 * const schema = z.strictObject({ input: idSchema("item").optional() });
 * ```
 */
export function idSchema(kind: string): z.ZodNumber {
  const article = /^[aeiou]/i.test(kind) ? "an" : "a";
  const expected = `${article} ${kind} id must be a positive whole number such as 19721`;
  return z.number({
    error: (issue) =>
      typeof issue.input === "string"
        ? `${expected}, not ${received(issue.input)}: send numbers, not strings`
        : `${expected}, not ${received(issue.input)}`,
  })
    .int({ error: (issue) => `${expected}, not ${received(issue.input)}` })
    .positive({ error: (issue) => `${expected}, not ${received(issue.input)}` });
}

/** A list of 1 to {@linkcode MAX_IDS} ids of one kind. */
export function idListSchema(kind: string): z.ZodArray<z.ZodNumber> {
  return z.array(idSchema(kind), {
    error: (issue) =>
      `expected a list of 1 to ${MAX_IDS} ${kind} ids such as [19721], not ${
        received(issue.input)
      }`,
  })
    .min(1, { error: `the list is empty: give 1 to ${MAX_IDS} ${kind} ids` })
    .max(MAX_IDS, {
      error: (issue) =>
        `too many ids: at most MAX_IDS = ${MAX_IDS} per call, got ${
          Array.isArray(issue.input) ? issue.input.length : "more"
        }; split the list into several calls`,
    });
}

/**
 * A tool's arguments object: unknown arguments are refused (a model that invents one learns
 * which arguments exist), and the published JSON Schema says `additionalProperties: false`.
 * `about` names what the refused call was for (`gw2_api`: its path), from the arguments given.
 *
 * @example
 * ```ts
 * const input = argumentsSchema({ ids: idListSchema("item") });
 * ```
 */
export function argumentsSchema<Shape extends z.core.$ZodLooseShape>(
  shape: Shape,
  about: (input: unknown) => string | undefined = () => undefined,
): z.ZodObject<Shape, z.core.$strict> {
  const names = Object.keys(shape).join(", ");
  // A tool without parameters has no list to name: say so, or the sentence ends in nothing.
  const [accepted, expected] = names === ""
    ? ["this tool takes no arguments: call it with {}", "an empty object: this tool takes none"]
    : [`this tool accepts only ${names}`, `an object with ${names}`];
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== "unrecognized_keys") return `arguments must be ${expected}`;
      const subject = about(issue.input);
      return `unknown argument ${unknownKeys(issue.keys)}${
        subject === undefined ? "" : ` ${subject}`
      }: ${accepted}`;
    },
  });
}

/** Names refused keys briefly: a long or numerous set is not echoed back in full. */
function unknownKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 3).map((key) =>
    JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}\u2026` : key)
  );
  return keys.length > 3 ? `${shown.join(", ")} and ${keys.length - 3} more` : shown.join(", ");
}

/**
 * The `lang` every tool that names things takes: the GW2 language to name items, currencies and
 * material categories in, English when absent. Spread it into a tool's arguments and pass
 * `lang ?? "en"` on (item names: `itemNamesIn`, `src/search/localize.ts`).
 *
 * @example
 * ```ts
 * const input = argumentsSchema({ ids: idListSchema("item"), lang: LangField });
 * ```
 */
export const LangField: z.ZodOptional<z.ZodEnum<{ [L in typeof LANGUAGES[number]]: L }>> = z
  .enum(LANGUAGES, {
    error: (issue) =>
      `lang must be one of ${LANGUAGES.join(", ")} (GW2's languages), not ${received(issue.input)}`,
  })
  // No description: the five codes say what it is, and every tools/list pays for words.
  .optional();

/** Output field set only on stale results. */
export const staleAgeField: z.ZodOptional<z.ZodNumber> = z.number().optional().describe(
  "Set only if GW2 failed: age in seconds of the cached data served",
);

/**
 * The advice of every id-list tool on a used-up budget: batching saves the requests it would
 * otherwise spend (see `ToolErrorHints.rateLimited`).
 */
export const BATCH_IDS_ADVICE =
  `, and batch ids into one call (up to MAX_IDS = ${MAX_IDS}) instead of many calls`;
