/**
 * `priory_wizards_vault` over the real stack and the fake's planted Vault: rewards ordered by
 * value per Astral Acclaim against an independent calculation from the fake's own prices,
 * untradeable ones after with `value: null`, `affordable` with a purchase limit reached, the API's
 * quirks, keys without `progression` or `wallet`, `limit`, and the answer's size.
 */

import assert from "node:assert/strict";
import { MAIN_VAULT, TEST_KEYS, VAULT_LISTING, VAULT_SEASON } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Row = {
  id: number;
  itemId: number;
  name: string;
  count: number;
  cost: number;
  type: string;
  purchased: number | null;
  limit: number | null;
  value: number | null;
  perAcclaim: number | null;
  affordable: boolean | null;
};
type Vault = {
  acclaim?: number;
  season: { title: string; end: string };
  listings: Row[];
  more?: number;
  unread?: { part: string; scope: string }[];
};

async function call(
  app: TestApp,
  args: Record<string, unknown> = {},
  key: string = TEST_KEYS.full,
): Promise<{ result: Vault; text: string; isError: boolean }> {
  await using client = await connectClient(app.handler, { headers: { "X-GW2-Key": key } });
  const answer = await client.callTool({ name: "priory_wizards_vault", arguments: args });
  return {
    result: answer.structuredContent as Vault,
    text: textOf(answer),
    isError: answer.isError === true,
  };
}

/** The order and values worked out apart from the tool: the fake's prices, the 15 % fee. */
function expected(app: TestApp): { id: number; value: number | null }[] {
  const valued = MAIN_VAULT.listings.map((listing) => {
    const price = app.fake.world.prices.get(listing.item_id);
    const value = price === undefined
      ? null
      : listing.item_count * Math.floor(price.buys.unit_price * 85 / 100);
    return { id: listing.id, value, per: value === null ? -1 : value / listing.cost };
  });
  const traded = valued.filter((row) => row.value !== null).sort((a, b) => b.per - a.per);
  const untraded = valued.filter((row) => row.value === null).sort((a, b) => a.id - b.id);
  return [...traded, ...untraded].map(({ id, value }) => ({ id, value }));
}

Deno.test("rewards by value per Acclaim, the untradeable ones after with value null", async () => {
  await using app = await startTestApp();
  const { result, isError } = await call(app, { limit: 50 });
  assert.equal(isError, false);
  assert.deepEqual(result.season, { title: VAULT_SEASON.title, end: VAULT_SEASON.end });
  assert.equal(result.acclaim, 640);
  assert.deepEqual(result.listings.map(({ id, value }) => ({ id, value })), expected(app));
  const traded = result.listings.filter((row) => row.value !== null);
  assert.equal(traded.length, 8);
  for (const row of traded) {
    // The contract's figure exactly: value / cost, not rounded.
    assert.equal(row.perAcclaim, (row.value ?? 0) / row.cost);
  }
  assert.deepEqual(
    result.listings.slice(8).map((row) => [row.name, row.perAcclaim]),
    [["Mystic Clover", null], ["Obsidian Shard", null], ["Eldritch Scroll", null], [
      "Philosopher's Stone",
      null,
    ]],
  );
  assert.equal(result.more, undefined);
});

Deno.test("affordable: within the balance and under the purchase limit; the API's quirks handled", async () => {
  await using app = await startTestApp();
  const rows = new Map(
    (await call(app, { limit: 50 })).result.listings.map((row) => [row.id, row]),
  );
  const coin = rows.get(VAULT_LISTING.mysticCoin);
  assert.deepEqual(
    [coin?.cost, coin?.purchased, coin?.limit, coin?.affordable],
    [40, 2, 2, false],
    "40 of 640 Acclaim, but the limit of 2 is reached",
  );
  assert.equal(rows.get(VAULT_LISTING.dawn)?.affordable, false, "1,300 > 640");
  assert.equal(rows.get(VAULT_LISTING.dawn)?.purchased, 0, "a Legacy listing's 0 is real");
  const ecto = rows.get(VAULT_LISTING.ectoplasm);
  assert.deepEqual([ecto?.purchased, ecto?.limit, ecto?.affordable], [null, 50, true], "#84");
  assert.equal(rows.get(VAULT_LISTING.blood)?.purchased, 3, "a Normal listing's real count");
  const dust = rows.get(VAULT_LISTING.dust);
  assert.deepEqual([dust?.purchased, dust?.limit, dust?.affordable], [null, null, true]);
  assert.equal(rows.get(VAULT_LISTING.clover)?.affordable, true, "4 of 10 bought");
});

Deno.test("a key without progression or wallet: unread names the scope, the listings still answer", async () => {
  await using app = await startTestApp();
  const noProgression = (await call(app, {}, TEST_KEYS.noCharacters)).result;
  assert.deepEqual(noProgression.unread, [{ part: "purchases", scope: "progression" }]);
  assert.equal(noProgression.acclaim, 640);
  assert.ok(noProgression.listings.every((row) => row.purchased === null && row.limit === null));
  const coin = noProgression.listings.find((row) => row.id === VAULT_LISTING.mysticCoin);
  assert.equal(coin?.affordable, true, "the limit is unknown without the account's listings");
  assert.deepEqual(
    noProgression.listings.map((row) => row.id),
    expected(app).slice(0, 10).map((row) => row.id),
    "the public listings, valued the same",
  );
  const noWallet = (await call(app, {}, TEST_KEYS.progressionOnly)).result;
  assert.deepEqual(noWallet.unread, [{ part: "acclaim", scope: "wallet" }]);
  assert.equal(noWallet.acclaim, undefined);
  assert.ok(noWallet.listings.every((row) => row.affordable === null));
  const neither = (await call(app, {}, TEST_KEYS.accountOnly)).result;
  assert.deepEqual(neither.unread?.map((entry) => entry.scope), ["progression", "wallet"]);
  assert.equal(neither.listings.length, 10);
});

Deno.test("limit bounds the rows, more counts the rest; names follow lang; within 2,500 tokens", async () => {
  await using app = await startTestApp();
  const { result, text } = await call(app);
  assert.equal(result.listings.length, 10);
  assert.equal(result.more, 2);
  assert.equal(text, JSON.stringify(result));
  const tokens = new TextEncoder().encode(JSON.stringify(result)).byteLength / 4;
  assert.ok(tokens <= 2_500, `${tokens} tokens`);
  assert.equal((await call(app, { limit: 3 })).result.listings.length, 3);
  const refused = await call(app, { limit: 51 });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /limit must be a whole number from 1 to 50/);
  const german = (await call(app, { lang: "de" })).result;
  const ecto = german.listings.find((row) => row.id === VAULT_LISTING.ectoplasm);
  assert.ok(ecto !== undefined && ecto.name !== "Glob of Ectoplasm", ecto?.name);
  assert.equal(german.season.title, VAULT_SEASON.title, "the Vault's own texts stay English");
});
