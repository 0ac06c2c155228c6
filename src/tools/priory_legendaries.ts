/**
 * `priory_legendaries`: the curated legendary list, filtered by generation and type. Served from
 * the project's data (`src/data/legendaries.ts`); no upstream request.
 *
 * @module
 */

import { z } from "zod";
import { findLegendaries } from "../data/legendaries.ts";
import { argumentsSchema } from "./inputs.ts";
import { legendaryFilterFields } from "./legendary_filter.ts";
import { defineTool } from "./types.ts";

/** The `priory_legendaries` tool. */
export const prioryLegendaries = defineTool({
  name: "priory_legendaries",
  title: "Legendary list",
  description:
    "Priory-computed: the legendary equipment list (gw2efficiency static data, plus the Legendary Rune and Sigil as type upgrade) with generation, which the GW2 API does not have: generation is this project's curation, 1-3 for the weapon generations, null for armor, trinkets, backs, upgrades and the spear Klobjarne Geirr. Filter by generation and/or type.",
  inputSchema: argumentsSchema(legendaryFilterFields()),
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
