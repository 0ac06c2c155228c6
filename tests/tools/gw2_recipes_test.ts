import assert from "node:assert/strict";
import { Gw2NotFoundError } from "../../src/gw2/errors.ts";
import { silentLogger } from "../../src/log.ts";
import { gw2Recipes } from "../../src/tools/gw2_recipes.ts";
import { StubGw2Client } from "./_stub_gw2.ts";

Deno.test("gw2Recipes.handle() shapes recipes; ingredient type only when not an item", async () => {
  const gw2 = new StubGw2Client();
  const result = await gw2Recipes.handle({ ids: [7319, 5] }, { gw2, log: silentLogger });
  assert.deepEqual(result, {
    recipes: [{
      id: 7319,
      output_item_id: 19721,
      output_item_count: 1,
      disciplines: ["Artificer", "Weaponsmith"],
      min_rating: 400,
      ingredients: [
        { id: 19976, count: 5 },
        { id: 2, count: 150, type: "Currency" },
        { id: 1024, count: 1, type: "GuildUpgrade" },
      ],
    }],
    missing_ids: [5],
  });
});

Deno.test("gw2Recipes.handle() throws not-found when no recipe exists", async () => {
  await assert.rejects(
    () => gw2Recipes.handle({ ids: [19721] }, { gw2: new StubGw2Client(), log: silentLogger }),
    Gw2NotFoundError,
  );
});
