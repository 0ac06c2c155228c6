/**
 * Generator, run by hand: writes the fake GW2 world's real achievement records
 * (`tests/fake_gw2/data/achievements.json`) from the reference pack's
 * `achievements/collections.json` (`/v2/achievements/<id>` records of a 2023 snapshot), in the
 * API's own shape minus its prose: `description`, `requirement` and `locked_text` are left out
 * (the fake writes fresh ones) and so is `icon` (synthesized).
 *
 * ```sh
 * deno run --allow-read --allow-write scripts/fake_achievements.ts [pack folder]
 * ```
 *
 * Not every chain of the snapshot is carried: every item a record names must exist in the fake's
 * `/v2/items` (the real API knows them), and the pack names almost none of the 2,153 items the
 * 115 collections collect, so each carried bit becomes a generated stand-in item. The chains
 * below (37 records, ~760 item bits) cover what the tools meet: a four-step precursor chain
 * (Astralaria, Nevermore, HOPE), explicit prerequisites (Aurora, Coalescence, The Convergence of
 * Sorrow: one rewards nothing), a chain fed by the rewards of its siblings (Chuka and
 * Champawat), skin and minipet bits (Ad Infinitum, Astralaria I), a title reward (none here) and
 * several achievements rewarding the same tradeable item (two fishers).
 *
 * The pack defaults to `../shared/gw2-data`.
 *
 * @module
 */

import { z } from "zod";
import { DEFAULT_PACK, writeJsonLines } from "./curation/sources.ts";

const OUT = "tests/fake_gw2/data/achievements.json";

/** English name prefixes of the carried chains. */
const CHAINS: readonly string[] = [
  "Astralaria ",
  "Aurora",
  "Coalescence ",
  "Chuka and Champawat ",
  "Ad Infinitum ",
  "Legendary Backpack: Ad Infinitum",
  "HOPE ",
  "Nevermore ",
  "The Convergence of Sorrow ",
  "Twilight ",
  "Krytan Fisher",
  "World Class Fisher",
];

const Id = z.number().int().positive();

const AchievementSchema = z.object({
  id: Id,
  name: z.string(),
  type: z.string(),
  flags: z.array(z.string()),
  bits: z.array(z.object({ type: z.string(), id: Id.optional(), text: z.string().optional() }))
    .optional(),
  tiers: z.array(z.object({ count: z.number().int(), points: z.number().int() })),
  rewards: z.array(z.object({
    type: z.string(),
    id: Id.optional(),
    count: z.number().int().optional(),
  })).optional(),
  prerequisites: z.array(Id).optional(),
  point_cap: z.number().int().optional(),
});

const pack = Deno.args[0] ?? DEFAULT_PACK;
const records = z.array(AchievementSchema).parse(
  JSON.parse(await Deno.readTextFile(`${pack}/achievements/collections.json`)),
);
const byId = new Map(records.map((record) => [record.id, record]));
const carried = new Map(
  records.filter((record) => CHAINS.some((chain) => record.name.startsWith(chain)))
    .map((record) => [record.id, record]),
);
// A carried record's prerequisites are carried too (the chain is followed to its start).
for (const record of [...carried.values()]) {
  for (const id of record.prerequisites ?? []) {
    const prerequisite = byId.get(id);
    if (prerequisite === undefined) throw new Error(`prerequisite ${id} of ${record.id} missing`);
    carried.set(id, prerequisite);
  }
}
const rows = [...carried.values()].sort((a, b) => a.id - b.id);
const size = await writeJsonLines(OUT, { achievements: rows });
const bits = rows.reduce((sum, row) => sum + (row.bits?.length ?? 0), 0);
// deno-lint-ignore no-console -- a generator run by hand reports on stdout
console.log(`${OUT}: ${rows.length} achievements, ${bits} bits, ${size} bytes`);
