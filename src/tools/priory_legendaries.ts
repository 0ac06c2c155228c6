/**
 * `priory_legendaries`: the curated legendary list, filtered by generation and type. Served from
 * the project's data (`src/data/legendaries.ts`); no upstream request.
 *
 * @module
 */

import { z } from "zod";
import { findLegendaries, LEGENDARY_TYPES } from "../data/legendaries.ts";
import { argumentsSchema, received } from "./inputs.ts";
import { defineTool } from "./types.ts";

const generationError = (issue: { input: unknown }) =>
  `generation must be 1, 2 or 3 (the legendary weapon generations), not ${
    received(issue.input)
  }; omit it to list every legendary`;

const typeError = (issue: { input: unknown }) =>
  `type must be one of ${LEGENDARY_TYPES.join(", ")}, not ${received(issue.input)}`;

/** The `priory_legendaries` tool. */
export const prioryLegendaries = defineTool({
  name: "priory_legendaries",
  title: "Legendary list",
  description:
    "Priory-computed: the legendary equipment list (gw2efficiency static data, plus the Legendary Rune and Sigil as type upgrade) with generation, which the GW2 API does not have: generation is this project's curation, 1-3 for the weapon generations, null for armor, trinkets, backs, upgrades and the spear Klobjarne Geirr. Filter by generation and/or type.",
  inputSchema: argumentsSchema({
    generation: z.number({ error: generationError }).int({ error: generationError })
      .min(1, { error: generationError }).max(3, { error: generationError }).optional()
      .describe("Weapon generation"),
    type: z.enum(LEGENDARY_TYPES, { error: typeError }).optional().describe("Category"),
  }),
  outputSchema: z.object({
    legendaries: z.array(z.object({
      id: z.number(),
      name: z.string(),
      type: z.string(),
      generation: z.number().nullable(),
      precursorId: z.number().optional(),
      source: z.string(),
    })),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  handle({ generation, type }) {
    return Promise.resolve({ legendaries: findLegendaries({ generation, type }) });
  },
});
