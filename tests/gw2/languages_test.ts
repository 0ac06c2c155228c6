/**
 * Names in the five GW2 languages through the client: `lang` always sent (English too), never a
 * caller's `Accept-Language`; an item's name in another language kept as a name record of its
 * own (never a second copy of the item), cached and written through like the items; currencies
 * and material categories named in the language asked, the rest of their records English.
 */
import assert from "node:assert/strict";
import type { CatalogueItem } from "../../src/gw2/schemas.ts";
import type { Lang } from "../../src/gw2/types.ts";
import { Gw2Keys } from "../../src/gw2/cache/keys.ts";
import { createFakeGw2, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";

const IDS = [WELL_KNOWN.twilight, WELL_KNOWN.globOfEctoplasm];

async function setup(
  onItemsFetched?: (items: readonly CatalogueItem[], lang: Lang) => Promise<void>,
) {
  const kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const client = clientOverFake(kv, clock, fake, {
    coalesceWindowMs: 0,
    ...(onItemsFetched === undefined ? {} : { onItemsFetched }),
  });
  return { kv, fake, client, [Symbol.dispose]: () => kv.close() };
}

Deno.test("gw2 client: items are read with lang=en, every time", async () => {
  using s = await setup();
  await s.client.items(IDS);
  await s.client.currencies();
  await s.client.materials();
  for (const request of s.fake.control.requests) {
    assert.match(request.query, /(^|&)lang=en(&|$)/u, `${request.path}?${request.query}`);
    assert.equal(request.acceptLanguage, undefined);
  }
});

Deno.test("gw2 client: itemNames() reads a language once, keeps only the name record, and writes it through", async () => {
  const written: [Lang, number[]][] = [];
  using s = await setup((items, lang) => {
    written.push([lang, items.map((item) => item.id).sort((a, b) => a - b)]);
    return Promise.resolve();
  });
  const german = await s.client.itemNames(IDS, "de");
  assert.deepEqual(
    new Map(german.found.map((item) => [item.id, item.name])),
    new Map([[30704, "Düsternis"], [19721, "Ektoplasmabatzen"]]),
  );
  assert.deepEqual(Object.keys(german.found[0] ?? {}).sort(), ["id", "name", "rarity", "type"]);
  assert.deepEqual(written, [["de", [19721, 30704]]]);
  const requests = s.fake.control.requests.length;
  assert.deepEqual(await s.client.itemNames(IDS, "de"), german, "cached");
  assert.equal(s.fake.control.requests.length, requests, "no request for a cached name");
  assert.match(s.fake.control.requests.at(-1)?.query ?? "", /lang=de/u);
  // In KV: a name record per language, beside (not instead of) nothing else of the item.
  const keys = new Gw2Keys("http://gw2.fake");
  const stored = await s.kv.get(keys.record("name-de", WELL_KNOWN.twilight));
  assert.ok(stored.value !== null);
  assert.equal((await s.kv.get(keys.record("item", WELL_KNOWN.twilight))).value, null);
  const english = await s.client.itemNames(IDS, "en");
  assert.equal(english.found.find((item) => item.id === 30704)?.name, "Twilight");
  assert.equal(written.at(-1)?.[0], "en", "English names come from the items, written through too");
  const french = await s.client.itemNames([WELL_KNOWN.twilight, 999_999_001], "fr");
  assert.equal(french.found[0]?.name, "Crépuscule");
  assert.deepEqual(french.missingIds, [999_999_001]);
});

Deno.test("gw2 client: currencies and materials in a language: English records, localized names", async () => {
  using s = await setup();
  const english = await s.client.currencies();
  const french = await s.client.currencies("fr");
  assert.equal(french.value.find((currency) => currency.id === 1)?.name, "Pièce");
  assert.deepEqual(
    french.value.map(({ id, order }) => [id, order]),
    english.value.map(({ id, order }) => [id, order]),
    "everything but the names is the English record's",
  );
  const categories = await s.client.materials("zh");
  assert.equal(categories.value.find((category) => category.id === 30)?.name, "宝石和珠宝");
  const englishCategories = await s.client.materials();
  assert.deepEqual(
    categories.value.map((category) => category.items),
    englishCategories.value.map((category) => category.items),
  );
  const asked = s.fake.control.requests.map((request) =>
    `${request.path}?${request.query.replace(/&v=.*/u, "")}`
  );
  // materials("zh") reads the English records and the names at once: either may be logged first.
  assert.deepEqual([...asked.slice(0, 2), ...asked.slice(2).sort()], [
    "/v2/currencies?ids=all&lang=en",
    "/v2/currencies?ids=all&lang=fr",
    "/v2/materials?ids=all&lang=en",
    "/v2/materials?ids=all&lang=zh",
  ]);
});
