/**
 * The legendary filter both `priory_legendaries` and `priory_legendary_ranking` take: an
 * optional weapon generation and an optional category, with messages that say what to send.
 *
 * @module
 */

import { z } from "zod";
import { LEGENDARY_TYPES } from "../data/legendaries.ts";
import { received } from "./inputs.ts";

const generationError = (issue: { input: unknown }) =>
  `generation must be 1, 2 or 3 (the legendary weapon generations), not ${
    received(issue.input)
  }; omit it for every legendary`;

const typeError = (issue: { input: unknown }) =>
  `type must be one of ${LEGENDARY_TYPES.join(", ")}, not ${received(issue.input)}`;

/**
 * The two optional fields, to spread into an arguments schema.
 *
 * @example
 * ```ts
 * const input = argumentsSchema({ ...legendaryFilterFields() });
 * ```
 */
export function legendaryFilterFields(): {
  generation: z.ZodOptional<z.ZodNumber>;
  type: z.ZodOptional<z.ZodEnum<{ [K in typeof LEGENDARY_TYPES[number]]: K }>>;
} {
  return {
    generation: z.number({ error: generationError }).int({ error: generationError })
      .min(1, { error: generationError }).max(3, { error: generationError }).optional()
      .describe("Weapon generation"),
    type: z.enum(LEGENDARY_TYPES, { error: typeError }).optional().describe("Category"),
  };
}
