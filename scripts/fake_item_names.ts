/**
 * Generator, run by hand: writes the German, French, Spanish and Chinese names of the fake GW2
 * world's curated items (`tests/fake_gw2/data/item_names.json`) from the reference pack's
 * `i18n/item_names.json`, for every curated item it names (the legendaries, their trees, the
 * main snapshot's items). Facts only: ArenaNet's names, as the API serves them.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run scripts/fake_item_names.ts [pack folder]
 * ```
 *
 * One correction: where the pack marks a language `lowercased` (its source lowered the case of
 * those names for search; 641 Spanish and 6 Chinese records), the first letter is restored to a
 * capital, as the API writes them ("alba" → "Alba"). Curated items the pack does not name keep
 * generated names in the fake (`tests/fake_gw2/world/localized.ts`).
 *
 * The pack defaults to `../shared/gw2-data`.
 *
 * @module
 */

import { z } from "zod";
import { DEFAULT_PACK, writeJsonLines } from "./curation/sources.ts";

const OUT = "tests/fake_gw2/data/item_names.json";
const ITEMS = "tests/fake_gw2/data/items.json";
const LANGS = ["de", "fr", "es", "zh"] as const;

const NamesSchema = z.record(
  z.string(),
  z.object({
    de: z.string(),
    fr: z.string(),
    es: z.string(),
    zh: z.string(),
    lowercased: z.array(z.enum(LANGS)).optional(),
  }),
);

const ItemsSchema = z.object({ items: z.array(z.object({ id: z.number().int().positive() })) });

/** `name` with its first letter a capital (the API's case for a name its source lowered). */
function capitalized(name: string): string {
  const first = name.match(/\p{L}/u);
  if (first?.index === undefined) return name;
  const at = first.index;
  return name.slice(0, at) + name.charAt(at).toLocaleUpperCase() + name.slice(at + 1);
}

const pack = Deno.args[0] ?? DEFAULT_PACK;
const names = NamesSchema.parse(
  JSON.parse(await Deno.readTextFile(`${pack}/i18n/item_names.json`)),
);
const curated = ItemsSchema.parse(JSON.parse(await Deno.readTextFile(ITEMS))).items.map(({ id }) =>
  id
);
const rows: (number | string)[][] = [];
for (const id of curated) {
  const record = names[String(id)];
  if (record === undefined) continue;
  const lowered = new Set(record.lowercased ?? []);
  rows.push([
    id,
    ...LANGS.map((lang) => lowered.has(lang) ? capitalized(record[lang]) : record[lang]),
  ]);
}
const bytes = await writeJsonLines(OUT, { languages: [LANGS], names: rows });
// deno-lint-ignore no-console -- a generator reports what it wrote
console.log(`${OUT}: ${rows.length} of ${curated.length} curated items named, ${bytes} bytes`);
