/**
 * The generator's choice among several records (`scripts/curation/select.ts`), on hand-made
 * records: each step of the contract's rule, and the readings of odd records.
 */
import assert from "node:assert/strict";
import {
  type Candidates,
  chooseRecord,
  findCycles,
  readIngredients,
  type SourceIngredient,
  type SourceRecord,
  walkTrees,
} from "../../scripts/curation/select.ts";

const OUT = 500;

function item(id: number, count = 1): SourceIngredient {
  return { type: "Item", id, count };
}

function currency(id: number, count: number): SourceIngredient {
  return { type: "Currency", id, count };
}

function offer(name: string, ingredients: SourceIngredient[], outputCount = 1): SourceRecord {
  return {
    name,
    output_item_id: OUT,
    output_item_count: outputCount,
    ingredients,
    disciplines: ["Merchant"],
    merchant: { name },
  };
}

function forge(name: string, ingredients: SourceIngredient[], outputCount = 1): SourceRecord {
  return {
    name,
    output_item_id: OUT,
    output_item_count: outputCount,
    ingredients,
    disciplines: ["Mystic Forge"],
  };
}

const chosen = (f: SourceRecord[], o: SourceRecord[]) => chooseRecord(f, o)?.record.name;

Deno.test("rule (2) before (3) before (4); nothing makes a leaf", () => {
  const promotion = forge("promotion", [item(OUT, 50), item(7)], 60);
  const combine = forge("combine", [item(7), item(8)]);
  const currencyOffer = offer("currencies", [currency(1, 900), currency(2, 10)]);
  const itemOffer = offer("items", [item(9)]);
  assert.equal(chosen([combine], [itemOffer, currencyOffer]), "currencies");
  assert.equal(chooseRecord([combine], [itemOffer, currencyOffer])?.rule, 2);
  assert.equal(chosen([promotion, combine], [itemOffer]), "combine");
  assert.equal(chooseRecord([promotion, combine], [itemOffer])?.rule, 3);
  assert.equal(chosen([promotion], [itemOffer]), "items", "a promotion is never the way");
  assert.equal(chooseRecord([promotion], [itemOffer])?.rule, 4);
  assert.equal(chooseRecord([promotion], []), undefined);
});

Deno.test("rule (2): least coin per unit, then fewest ingredients, then source order", () => {
  // 160 coin per 10 beats 520 per 10 and 20 per 1; per unit, not per offer.
  const coal = [
    offer("520/10", [currency(1, 520)], 10),
    offer("20/1", [currency(1, 20)]),
    offer("160/10", [currency(1, 160)], 10),
  ];
  assert.equal(chosen([], coal), "160/10");
  // No coin is the least coin: karma alone beats coin with a map currency.
  const shard = [
    offer("coin+map", [currency(1, 100), currency(32, 50)]),
    offer("karma", [
      currency(2, 2100),
    ]),
  ];
  assert.equal(chosen([], shard), "karma");
  // Equal coin: fewer ingredients; then the first listed.
  const tie = [
    offer("two", [currency(2, 10), currency(32, 5)]),
    offer("one-a", [currency(3, 1)]),
    offer("one-b", [currency(4, 1)]),
  ];
  assert.equal(chosen([], tie), "one-a");
  // Exact comparison: 1/3 coin per unit equals 2/6.
  assert.equal(
    chosen([], [offer("1/3", [currency(1, 1)], 3), offer("2/6", [currency(1, 2)], 6)]),
    "1/3",
  );
});

Deno.test("rule (3): the first non-promotion in source order, output count as given", () => {
  const clover = forge("clover", [item(1), item(2), item(3), item(4, 6)], 0.31);
  const later = forge("later", [item(5)]);
  const choice = chooseRecord([clover, later], []);
  assert.equal(choice?.record.name, "clover");
  assert.equal(choice?.record.output_item_count, 0.31);
});

Deno.test("rule (4): item-taking offers ordered as in (2)", () => {
  const offers = [
    offer("coin", [currency(1, 20_000), item(7, 250)]),
    offer("four", [currency(35, 3), item(7), item(8), item(9)]),
    offer("one", [item(9)]),
  ];
  assert.equal(chosen([], offers), "one");
  assert.equal(chosen([], offers.slice(0, 2)), "four", "no coin beats coin, whatever the count");
});

Deno.test("readIngredients(): item 34 is Trade Contract, repeats merge, zero counts drop", () => {
  const incense = offer("incense", [item(68063), item(34, 100)]);
  assert.deepEqual(readIngredients(incense), [item(68063), currency(34, 100)]);
  assert.equal(chooseRecord([], [incense])?.rule, 4, "still takes an item");
  assert.equal(chooseRecord([], [offer("contracts", [item(34, 100)])])?.rule, 2);
  const gemstone = forge("gemstone", [item(24277), item(24514, 3), item(24514, 3), item(24514, 3)]);
  assert.deepEqual(readIngredients(gemstone), [item(24277), item(24514, 9)]);
  const clay = offer("clay", [currency(1, 0), currency(25, 12)]);
  assert.deepEqual(readIngredients(clay), [currency(25, 12)]);
});

Deno.test("walkTrees() follows the chosen way only; findCycles() sees the candidates' cycles", () => {
  // 1 ← forge(2); 2 ← offer(currencies) or forge(3); 3 ← forge(2): a cycle the rule never walks.
  const candidates: Candidates = {
    official: new Map([[1, [{ id: 9, itemIds: [4] }, { id: 5, itemIds: [2] }]]]),
    forge: new Map([
      [2, [{ ...forge("2 from 3", [item(3)]), output_item_id: 2 }]],
      [3, [{ ...forge("3 from 2", [item(2)]), output_item_id: 3 }]],
    ]),
    offers: new Map([[2, [{ ...offer("2 for coin", [currency(1, 5)]), output_item_id: 2 }]]]),
  };
  const ways = walkTrees([1], candidates);
  assert.deepEqual([...ways.keys()], [1, 2], "the lowest official recipe id, then the offer");
  assert.equal(ways.get(1)?.kind, "official");
  assert.equal(ways.get(2)?.kind, "curated");
  assert.deepEqual(findCycles(new Map([[1, [2]], [2, [3]], [3, [2]]])), [[2, 3, 2]]);
  assert.deepEqual(findCycles(new Map([[1, [2]], [2, [3]]])), []);
});
