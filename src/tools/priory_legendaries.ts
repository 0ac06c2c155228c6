/**
 * `priory_legendaries`: the curated legendary list, filtered by generation and type. Served from
 * the project's data (`src/data/legendaries.ts`); no upstream request. In another language the
 * names are the name index's (the warm-up reads every legendary's, in every language, first);
 * a legendary it has no such name for keeps the curated English one, and says so (`lang`).
 *
 * @module
 */

import { z } from "zod";
import { findLegendaries } from "../data/legendaries.ts";
import { argumentsSchema, LangField } from "./inputs.ts";
import { legendaryFilterFields } from "./legendary_filter.ts";
import { defineTool } from "./types.ts";

/** The `priory_legendaries` tool. */
export const prioryLegendaries = defineTool({
  name: "priory_legendaries",
  title: "Legendary list",
  description:
    "Priory-computed: the legendary equipment list (gw2efficiency static data, plus the Legendary Rune and Sigil as type upgrade) with generation, which the GW2 API does not have: generation is this project's curation, 1-3 for the weapon generations, null for armor, trinkets, backs, upgrades and the spear Klobjarne Geirr. Filter by generation and/or type.",
  inputSchema: argumentsSchema({ ...legendaryFilterFields(), lang: LangField }),
  outputSchema: z.object({
    legendaries: z.array(z.object({
      id: z.number(),
      name: z.string(),
      type: z.string(),
      generation: z.number().nullable(),
      precursorId: z.number().optional(),
      source: z.string(),
      lang: z.string().optional(),
    })),
  }),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async handle({ generation, type, lang }, deps) {
    const legendaries = findLegendaries({ generation, type });
    if (lang === undefined || lang === "en") return { legendaries };
    const names = await deps.names?.namesOf(legendaries.map(({ id }) => id), lang)
      .catch(() => undefined);
    return {
      legendaries: legendaries.map((legendary) => {
        const name = names?.get(legendary.id);
        return name === undefined ? { ...legendary, lang: "en" as const } : { ...legendary, name };
      }),
    };
  },
});
