import assert from "node:assert/strict";
import {
  shapeIngredient,
  shapeItem,
  shapeItemsResult,
  shapePrice,
  shapeRecipe,
  shapeRecipeSearchResult,
} from "../../src/passthrough/shape.ts";
import type { Item } from "../../src/gw2/schemas.ts";
import { BOUND, ECTO, ECTO_PRICE, RECIPE } from "../tools/_stub_gw2.ts";

Deno.test("shapeItem() keeps exactly the declared fields", () => {
  assert.deepEqual(Object.keys(shapeItem(ECTO)), [
    "id",
    "name",
    "rarity",
    "type",
    "flags",
    "vendor_value",
  ]);
  assert.deepEqual(shapeItem(BOUND).flags, ["AccountBound", "NoSell"]);
});

Deno.test("shapeItem() builds explicitly: a field added upstream cannot leak through", () => {
  // As if the record schema had been widened: extra keys the shape must not carry.
  const widened: Item = Object.assign({}, ECTO, {
    icon: "https://render.guildwars2.com/file/x.png",
    description: "Salvaged from rare items.",
    details: { type: "Default" },
    game_types: ["Pve"],
  });
  const shaped = JSON.stringify(shapeItem(widened));
  for (const field of ["icon", "description", "details", "game_types", "chat_link", "level"]) {
    assert.ok(!shaped.includes(`"${field}"`), field);
  }
});

Deno.test("shapeItem() copies arrays, so a result never aliases a cached record", () => {
  const shaped = shapeItem(BOUND);
  shaped.flags.push("Mutated");
  assert.deepEqual(BOUND.flags, ["AccountBound", "NoSell"]);
});

Deno.test("shapeRecipe() keeps the declared fields; drops type, flags and chat_link", () => {
  const shaped = shapeRecipe(RECIPE);
  assert.deepEqual(Object.keys(shaped), [
    "id",
    "output_item_id",
    "output_item_count",
    "disciplines",
    "min_rating",
    "ingredients",
  ]);
  assert.doesNotMatch(JSON.stringify(shaped), /AutoLearned|Refinement|chat_link/);
});

Deno.test("shapeIngredient() carries type only when the ingredient is not an item", () => {
  assert.deepEqual(shapeIngredient({ type: "Item", id: 1, count: 2 }), { id: 1, count: 2 });
  assert.deepEqual(shapeIngredient({ type: "Currency", id: 2, count: 3 }), {
    id: 2,
    count: 3,
    type: "Currency",
  });
  assert.deepEqual(shapeIngredient({ type: "GuildUpgrade", id: 3, count: 1 }), {
    id: 3,
    count: 1,
    type: "GuildUpgrade",
  });
});

Deno.test("shapePrice() flattens to the unit prices and drops quantities and whitelisted", () => {
  assert.deepEqual(shapePrice(ECTO_PRICE), { id: 19721, buy: 2603, sell: 2797 });
  assert.deepEqual(
    shapePrice({
      id: 5,
      whitelisted: true,
      buys: { quantity: 0, unit_price: 0 },
      sells: { quantity: 3, unit_price: 10 },
    }),
    { id: 5, buy: 0, sell: 10 },
  );
});

Deno.test("shapeItemsResult() reports the missing ids and staleness of the read", () => {
  assert.deepEqual(
    shapeItemsResult({ found: [ECTO], missingIds: [1, 2], staleAgeMs: 3_000 }),
    { items: [shapeItem(ECTO)], missing_ids: [1, 2], stale_age_s: 3 },
  );
  assert.deepEqual(shapeRecipeSearchResult([7], undefined), { recipe_ids: [7] });
});
