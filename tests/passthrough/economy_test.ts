/**
 * Context economy, measured as the seeds did (research V3): shaped results, compact, against the
 * same records as minified upstream JSON — not the pretty-printed bytes the API sends, whose
 * whitespace would flatter the figure. The floors are the seeds' live measurements rounded down
 * (items 72.9 %, prices 72.7 %, recipes 31.3 %).
 *
 * Prices on the representative ids fall short of 70 % with the contract's `{id, buy, sell}`
 * shape: 21 of the 35 priced ids are legendaries, whose eight-digit prices make up most of a
 * shaped record (65 % for them, 70 % for the rest), and the 16 untradeable ids are listed in
 * `missing_ids`. The seeds' price set was mostly materials. So the 70 % floor is asserted over
 * every priced item of the fake world, and the representative call keeps a regression floor.
 */
import assert from "node:assert/strict";
import { shapePrice } from "../../src/passthrough/shape.ts";
import { silentLogger } from "../../src/log.ts";
import { gw2Items } from "../../src/tools/gw2_items.ts";
import { gw2Prices } from "../../src/tools/gw2_prices.ts";
import { gw2Recipes } from "../../src/tools/gw2_recipes.ts";
import { REPRESENTATIVE_IDS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { startTestApp } from "../support/app.ts";

function bytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}

/** Asserts `shaped` is at least `floor` smaller than `upstream`, both as compact JSON. */
function assertReduction(label: string, upstream: unknown, shaped: unknown, floor: number): void {
  const raw = bytes(upstream);
  const lean = bytes(shaped);
  const reduction = 1 - lean / raw;
  assert.ok(
    reduction >= floor,
    `${label}: ${raw} B → ${lean} B is ${(reduction * 100).toFixed(1)} %, below ${floor * 100} %`,
  );
}

Deno.test("shaped results are at least as lean as the seeds measured (items ≥ 70 %, recipes ≥ 30 %, prices ≥ 70 % over the catalogue)", async (t) => {
  await using app = await startTestApp();
  const world = app.fake.world;
  const deps = { gw2: app.gw2, log: silentLogger };
  const ids = [...REPRESENTATIVE_IDS];
  const recipeIds = (world.recipesByInput.get(WELL_KNOWN.globOfEctoplasm) ?? []).slice(0, 50);
  assert.ok(ids.length >= 50 && recipeIds.length === 50);

  await t.step("items: the representative ids in one gw2_items call, ≥ 70 %", async () => {
    const shaped = await gw2Items.handle({ ids }, deps);
    assertReduction("items", ids.flatMap((id) => world.items.get(id) ?? []), shaped, 0.70);
  });
  await t.step(
    "recipes: 50 recipes using Glob of Ectoplasm in one gw2_recipes call, ≥ 30 %",
    async () => {
      const shaped = await gw2Recipes.handle({ ids: recipeIds }, deps);
      const upstream = recipeIds.flatMap((id) => world.recipes.get(id) ?? []);
      assertReduction("recipes", upstream, shaped, 0.30);
    },
  );
  await t.step("prices: every priced item of the fake world, ≥ 70 %", () => {
    const upstream = [...world.prices.values()];
    assertReduction("prices", upstream, upstream.map(shapePrice), 0.70);
  });
  await t.step("prices: the representative ids in one gw2_prices call, ≥ 60 %", async () => {
    const shaped = await gw2Prices.handle({ ids }, deps);
    assertReduction("prices", ids.flatMap((id) => world.prices.get(id) ?? []), shaped, 0.60);
  });
});
