/**
 * `priory_legendaries`: the curated legendary list, filtered by generation and type. Served from
 * the project's data (`src/data/legendaries.ts`); no upstream request but with `useAccount`,
 * which adds the legendary armory's count (`owned`) and capacity (`max`) to each row (issue
 * 30). In another language the names are the name index's (the warm-up reads every
 * legendary's, in every language, first); a legendary it has no such name for keeps the curated
 * English one, and says so (`lang`).
 *
 * @module
 */

import { z } from "zod";
import { withArmory } from "../account/armory.ts";
import { readPart, unreadOf, valueOf } from "../account/unread.ts";
import { findLegendaries } from "../data/legendaries.ts";
import type { Lang } from "../gw2/types.ts";
import { argumentsSchema, LangField, received } from "./inputs.ts";
import { legendaryFilterFields } from "./legendary_filter.ts";
import { defineTool, requireGw2Key, type ToolDeps, UPSTREAM_READ } from "./types.ts";

/** The `priory_legendaries` tool. */
export const prioryLegendaries = defineTool({
  name: "priory_legendaries",
  title: "Legendary list",
  description:
    "Priory-computed: the legendary equipment list (gw2efficiency static data, plus the Legendary Rune and Sigil as type upgrade) with generation, which the GW2 API does not have: generation is this project's curation, 1-3 for the weapon generations, null for armor, trinkets, backs, upgrades and the spear Klobjarne Geirr. Filter by generation and/or type. useAccount (X-GW2-Key; unlocks, inventories): owned/max in your legendary armory.",
  inputSchema: argumentsSchema({
    ...legendaryFilterFields(),
    lang: LangField,
    useAccount: z.boolean({
      error: (issue) => `useAccount must be true or false, not ${received(issue.input)}`,
    }).optional(),
  }),
  outputSchema: z.object({
    legendaries: z.array(z.object({
      id: z.number(),
      name: z.string(),
      type: z.string(),
      generation: z.number().nullable(),
      precursorId: z.number().optional(),
      source: z.string(),
      lang: z.string().optional(),
      owned: z.number().optional(),
      max: z.number().optional(),
    })),
  }),
  // useAccount reads the account's legendary armory.
  annotations: UPSTREAM_READ,
  async handle({ generation, type, lang, useAccount }, deps) {
    const found = findLegendaries({ generation, type });
    const legendaries = lang === undefined || lang === "en"
      ? found
      : await localized(found, lang, deps);
    return useAccount === true ? await withAccountArmory(legendaries, deps) : { legendaries };
  },
});

/** The rows named in `lang` by the name index; a row it has no name for says so (`lang: "en"`). */
async function localized<T extends { readonly id: number }>(
  rows: readonly T[],
  lang: Lang,
  deps: ToolDeps,
) {
  const names = await deps.names?.namesOf(rows.map(({ id }) => id), lang).catch(() => undefined);
  return rows.map((legendary) => {
    const name = names?.get(legendary.id);
    return name === undefined ? { ...legendary, lang: "en" as const } : { ...legendary, name };
  });
}

/**
 * The rows with the armory's count and capacity (issue 30); the account's part unread, and
 * named, when the key lacks its permissions.
 */
async function withAccountArmory<T extends { readonly id: number }>(
  legendaries: readonly T[],
  deps: ToolDeps,
) {
  const key = requireGw2Key(deps);
  const [held, limits] = await Promise.all([
    readPart("armory", () => deps.gw2.doc("accountLegendaryArmory", { key })),
    deps.gw2.bulk("legendaryArmory", legendaries.map(({ id }) => id)),
  ]);
  const slots = valueOf(held)?.value;
  const unread = unreadOf([held]);
  return {
    legendaries: slots === undefined
      ? [...legendaries]
      : withArmory(legendaries, slots, limits.found),
    ...(unread.length === 0 ? {} : { unread }),
  };
}
