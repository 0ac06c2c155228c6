/**
 * `priory_wizards_vault`'s answer (`src/today/vault.ts`): rewards that trade by value per Astral
 * Acclaim, the others after with `value: null`; `affordable` by cost and purchase limit; the
 * API's quirks (a `Normal` listing's `purchased` 0, no limits in the public listings).
 */
import assert from "node:assert/strict";
import type { AccountVaultListing, VaultSeason } from "../../src/gw2/schemas_today.ts";
import { shapeVault, type VaultInput } from "../../src/today/vault.ts";

const SEASON: VaultSeason = {
  title: "Season of the Quiet Priory",
  start: "2026-10-27T17:00:00Z",
  end: "2027-02-02T17:00:00Z",
  listings: [],
  objectives: [],
};

const LISTINGS: AccountVaultListing[] = [
  // Untradeable (no buy): a clover, limited.
  {
    id: 1,
    item_id: 100,
    item_count: 1,
    type: "Featured",
    cost: 60,
    purchased: 4,
    purchase_limit: 10,
  },
  // 10 x floor(1000 x 0.85) = 8,500 for 10: 850 per Acclaim.
  {
    id: 2,
    item_id: 200,
    item_count: 10,
    type: "Normal",
    cost: 10,
    purchased: 0,
    purchase_limit: 50,
  },
  // 2 x 8,500 = 17,000 for 40: 425 per Acclaim; limit reached.
  {
    id: 3,
    item_id: 300,
    item_count: 2,
    type: "Featured",
    cost: 40,
    purchased: 2,
    purchase_limit: 2,
  },
  // 1 x 1,700,000 for 1,300: 1,307.69 per Acclaim, but more than the balance.
  {
    id: 4,
    item_id: 400,
    item_count: 1,
    type: "Legacy",
    cost: 1_300,
    purchased: 0,
    purchase_limit: 1,
  },
  // Unlimited, 3 x floor(7 x 0.85) = 15 for 7: 2.14.
  { id: 5, item_id: 500, item_count: 3, type: "Normal", cost: 7 },
  // Untradeable, unlimited.
  { id: 6, item_id: 600, item_count: 5, type: "Normal", cost: 5 },
  // Bought 3 of 25 (a Normal listing's non-zero count is real).
  { id: 7, item_id: 200, item_count: 1, type: "Normal", cost: 2, purchased: 3, purchase_limit: 25 },
];

const BUYS = new Map([[200, 1_000], [300, 10_000], [400, 2_000_000], [500, 7]]);
const NAMES = new Map([[100, "Mystic Clover"], [200, "Glob of Ectoplasm"], [400, "Dawn"]]);

function input(extra: Partial<VaultInput> = {}): VaultInput {
  return {
    season: SEASON,
    listings: LISTINGS,
    purchasesKnown: true,
    buys: BUYS,
    names: NAMES,
    acclaim: 640,
    limit: 10,
    unread: [],
    ...extra,
  };
}

Deno.test("tradeable rewards by value per Acclaim (ties: the larger value), untradeable after in the Vault's order", () => {
  const result = shapeVault(input());
  assert.deepEqual(result.listings.map((row) => row.id), [4, 2, 3, 7, 5, 1, 6]);
  assert.deepEqual(result.listings.map((row) => row.perAcclaim), [
    1_700_000 / 1_300,
    850,
    425,
    425,
    15 / 7,
    null,
    null,
  ]);
  assert.deepEqual(result.listings.map((row) => row.value), [
    1_700_000,
    8_500,
    17_000,
    850,
    15,
    null,
    null,
  ]);
  assert.equal(result.acclaim, 640);
  assert.deepEqual(result.season, { title: SEASON.title, end: SEASON.end });
  assert.equal(result.more, undefined);
});

Deno.test("affordable: cost within the balance and the purchase limit not reached", () => {
  const byId = new Map(shapeVault(input()).listings.map((row) => [row.id, row]));
  assert.equal(byId.get(3)?.affordable, false, "40 <= 640, but 2 of 2 bought");
  assert.equal(byId.get(4)?.affordable, false, "1,300 > 640");
  assert.equal(byId.get(2)?.affordable, true);
  assert.equal(byId.get(1)?.affordable, true, "4 of 10 bought");
  assert.deepEqual(
    { purchased: byId.get(3)?.purchased, limit: byId.get(3)?.limit },
    { purchased: 2, limit: 2 },
  );
});

Deno.test("a Normal listing's purchased 0 is unknown (gw2-api #84); a real count and other types are kept", () => {
  const byId = new Map(shapeVault(input()).listings.map((row) => [row.id, row]));
  assert.equal(byId.get(2)?.purchased, null);
  assert.equal(byId.get(2)?.limit, 50);
  assert.equal(byId.get(7)?.purchased, 3);
  assert.equal(byId.get(4)?.purchased, 0, "a Legacy listing's 0 is real");
  assert.deepEqual({ purchased: byId.get(5)?.purchased, limit: byId.get(5)?.limit }, {
    purchased: null,
    limit: null,
  }, "unlimited");
  assert.equal(byId.get(5)?.name, "Item 500", "an item without a name says its id");
});

Deno.test("without the account's listings or the wallet: purchases and affordability unknown, unread kept", () => {
  const unread = [{ part: "acclaim", scope: "wallet" }];
  const result = shapeVault(input({ purchasesKnown: false, acclaim: undefined, unread }));
  assert.equal(result.acclaim, undefined);
  assert.ok(result.listings.every((row) => row.purchased === null && row.limit === null));
  assert.ok(result.listings.every((row) => row.affordable === null));
  assert.deepEqual(result.unread, unread);
});

Deno.test("limit cuts the list and more counts the rest", () => {
  const result = shapeVault(input({ limit: 3 }));
  assert.deepEqual(result.listings.map((row) => row.id), [4, 2, 3]);
  assert.equal(result.more, 4);
});
