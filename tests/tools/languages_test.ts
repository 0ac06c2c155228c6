/**
 * Every GW2 language through the tools, with ArenaNet's names (the fake's, from the reference
 * data): one search over the five languages that answers each match in the language it matched
 * (or the one asked), and `lang` on every tool that names things — items, trees, legendaries,
 * the ranking, the wallet's currencies and the material categories, the crafting profit, the
 * price history and the flips.
 */
import assert from "node:assert/strict";
import { LANGUAGES } from "../../src/gw2/types.ts";
import { TEST_KEYS, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { localizedRecords } from "../fake_gw2/world/localized.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";
import { historyDeps, MovingMarket, simulate, worldPriceIds } from "../support/history.ts";

type Match = { id: number; name: string; lang?: string };
type Structured = Record<string, unknown>;

/** The fake's whole catalogue in every language written into the index, as the crawl does. */
async function crawled(app: TestApp): Promise<void> {
  for (const lang of LANGUAGES) {
    await app.names.putMany([...localizedRecords(app.fake.world, lang).items.values()], lang);
  }
}

async function call(
  client: Awaited<ReturnType<typeof connectClient>>,
  name: string,
  args: Record<string, unknown>,
): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, undefined, textOf(result));
  return result.structuredContent as Structured;
}

async function matches(
  client: Awaited<ReturnType<typeof connectClient>>,
  args: Record<string, unknown>,
): Promise<Match[]> {
  return (await call(client, "priory_item_search", args)).matches as Match[];
}

Deno.test("priory_item_search finds Twilight by its name in any language, with accents or without", async (t) => {
  await using app = await startTestApp();
  await crawled(app);
  await using client = await connectClient(app.handler);
  for (
    const [query, lang, name] of [
      ["Düsternis", "de", "Düsternis"],
      ["dusternis", "de", "Düsternis"],
      ["DÜSTERNIS", "de", "Düsternis"],
      ["Crépuscule", "fr", "Crépuscule"],
      ["crepuscule", "fr", "Crépuscule"],
      ["Crepúsculo", "es", "Crepúsculo"],
      ["crepusculo", "es", "Crepúsculo"],
      ["暗暮", "zh", "暗暮"],
      ["twilight", "en", "Twilight"],
    ] as const
  ) {
    await t.step(`${query}: answered in ${lang}`, async () => {
      const [first] = await matches(client, { query });
      assert.equal(first?.id, WELL_KNOWN.twilight, query);
      assert.equal(first?.lang, lang, "the language the query matched");
      assert.equal(first?.name, name);
    });
  }
  await t.step("Ektoplasmabatzen is Glob of Ectoplasm, in German", async () => {
    const [first] = await matches(client, { query: "Ektoplasmabatzen" });
    assert.deepEqual([first?.id, first?.lang], [WELL_KNOWN.globOfEctoplasm, "de"]);
  });
  await t.step("a French typo still finds it", async () => {
    for (const query of ["crepuscul", "crépuscle", "crepsucule"]) {
      const [first] = await matches(client, { query });
      assert.deepEqual([first?.id, first?.lang], [WELL_KNOWN.twilight, "fr"], query);
    }
    const [ecto] = await matches(client, { query: "boule d'ectoplasm" });
    assert.equal(ecto?.id, WELL_KNOWN.globOfEctoplasm, "an elided article, the word being typed");
    // "d'ectoplasme" is two words: the noun is found as a word of its own, not after a "d".
    const [noun] = await matches(client, { query: "ectoplasme" });
    assert.deepEqual([noun?.id, noun?.lang], [WELL_KNOWN.globOfEctoplasm, "fr"]);
  });
  await t.step("Chinese by any part of the name: there are no word breaks", async () => {
    const found = await matches(client, { query: "四叶草", limit: 25 });
    assert.ok(found.some((match) => match.id === WELL_KNOWN.mysticClover), "神秘四叶草");
    assert.ok(found.every((match) => match.lang === "zh"));
  });
});

Deno.test("priory_item_search with lang answers in that language, whatever the query's", async () => {
  await using app = await startTestApp();
  await crawled(app);
  await using client = await connectClient(app.handler);
  const [french] = await matches(client, { query: "Düsternis", lang: "fr" });
  assert.deepEqual(french, {
    id: WELL_KNOWN.twilight,
    name: "Crépuscule",
    rarity: "Legendary",
    type: "Weapon",
  }, "named in the language asked, which it then does not repeat");
  const [german] = await matches(client, { query: "glob of ectoplasm", lang: "de" });
  assert.equal(german?.name, "Ektoplasmabatzen");
  const [link] = await matches(client, { query: "[&AgEJTQAA]", lang: "zh" });
  assert.deepEqual([link?.id, link?.name, link?.lang], [19721, "球形灵质", undefined]);
  const [english] = await matches(client, { query: "[&AgEJTQAA]" });
  assert.deepEqual(
    [english?.name, english?.lang],
    ["Glob of Ectoplasm", "en"],
    "chat links as before",
  );
  const refused = await client.callTool({
    name: "priory_item_search",
    arguments: { query: "ecto", lang: "it" },
  });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /lang must be one of en, de, fr, es, zh/);
});

Deno.test("gw2_items and priory_recipe_tree name their items in the language asked", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  const items = await call(client, "gw2_items", {
    ids: [WELL_KNOWN.twilight, WELL_KNOWN.mysticClover],
    lang: "es",
  });
  assert.deepEqual(
    (items.items as Match[]).map((item) => item.name),
    ["Crepúsculo", "Trébol místico"],
  );
  const tree = await call(client, "priory_recipe_tree", {
    itemId: WELL_KNOWN.twilight,
    lang: "de",
  });
  const names = tree.names as Record<string, string>;
  assert.equal(names[WELL_KNOWN.twilight], "Düsternis");
  assert.equal(names[WELL_KNOWN.mysticClover], "Mystischer Glücksklee");
  assert.equal(names[WELL_KNOWN.globOfEctoplasm], "Ektoplasmabatzen");
  const english = await call(client, "priory_recipe_tree", { itemId: WELL_KNOWN.twilight });
  assert.deepEqual(Object.keys(names).sort(), Object.keys(english.names as object).sort());
  type Summary = { currencies?: { id: number; name?: string; count: number }[] };
  const unnamed = (summary: unknown) => {
    const { currencies, ...rest } = summary as Summary;
    return { ...rest, currencies: currencies?.map(({ id, count }) => ({ id, count })) };
  };
  assert.deepEqual(unnamed(tree.summary), unnamed(english.summary), "the same plan");
  const spirit = (tree.summary as Summary).currencies?.find((currency) => currency.id === 23);
  assert.equal(spirit?.name, "Geister-Scherbe", "currencies named in the language too");
  assert.deepEqual(tree.tree, english.tree);
  assert.equal((english.names as Record<string, string>)[WELL_KNOWN.twilight], "Twilight");
});

Deno.test("priory_legendaries names legendaries from the index, English (said so) where it has none", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler);
  await app.names.putMany(
    [localizedRecords(app.fake.world, "fr").items.get(WELL_KNOWN.twilight)!],
    "fr",
  );
  const rows = (await call(client, "priory_legendaries", { generation: 1, lang: "fr" }))
    .legendaries as Match[];
  const twilight = rows.find((row) => row.id === WELL_KNOWN.twilight);
  assert.deepEqual([twilight?.name, twilight?.lang], ["Crépuscule", undefined]);
  const sunrise = rows.find((row) => row.id === WELL_KNOWN.sunrise);
  assert.deepEqual([sunrise?.name, sunrise?.lang], ["Sunrise", "en"], "no French name indexed");
  assert.equal(app.fake.control.requests.length, 0, "the list asks upstream nothing");
});

Deno.test("the ranking, the wallet and the material categories answer in the language asked", async () => {
  await using app = await startTestApp();
  await crawled(app);
  await using client = await connectClient(app.handler, {
    headers: { "X-GW2-Key": TEST_KEYS.veteran },
  });
  const english = await call(client, "priory_legendary_ranking", { limit: 25 });
  const french = await call(client, "priory_legendary_ranking", { limit: 25, lang: "fr" });
  const rows = french.ranking as (Match & { cost: number; cur?: Record<string, number> })[];
  const englishRows = english.ranking as typeof rows;
  assert.deepEqual(
    rows.map((row) => [row.id, row.cost]),
    englishRows.map((row) => [row.id, row.cost]),
  );
  const twilight = rows.find((row) => row.id === WELL_KNOWN.twilight);
  if (twilight !== undefined) assert.equal(twilight.name, "Crépuscule");
  const world = localizedRecords(app.fake.world, "fr");
  for (const row of rows) assert.equal(row.name, world.items.get(row.id)?.name, `row ${row.id}`);
  const currencies = new Set([...world.currencies.values()].map((currency) => currency.name));
  for (const row of rows) {
    for (const name of Object.keys(row.cur ?? {})) assert.ok(currencies.has(name), name);
  }

  const wallet = (await call(client, "priory_account_wallet", { lang: "de" })).wallet as Match[];
  assert.equal(wallet.find((entry) => entry.id === 1)?.name, "Münze");
  const categories = (await call(client, "priory_account_materials", { lang: "zh" }))
    .categories as { category: string }[];
  assert.ok(categories.some((row) => row.category === "宝石和珠宝"), "Gemstones and Jewels");
  const picked = (await call(client, "priory_account_materials", {
    ids: [WELL_KNOWN.globOfEctoplasm],
    lang: "de",
  })).materials as (Match & { category: string })[];
  assert.equal(picked[0]?.name, "Ektoplasmabatzen");
});

Deno.test("priory_craft_profit names its rows in the language asked: the same crafts, English by default", async () => {
  await using app = await startTestApp({ craft: true });
  await using client = await connectClient(app.handler);
  type Row = { id: number; name: string } & Record<string, unknown>;
  const english = (await call(client, "priory_craft_profit", {})).opportunities as Row[];
  const german = (await call(client, "priory_craft_profit", { lang: "de" })).opportunities as Row[];
  assert.ok(english.length > 0, "the fake's market has profitable crafts");
  const world = localizedRecords(app.fake.world, "de");
  for (const row of german) assert.equal(row.name, world.items.get(row.id)?.name, `row ${row.id}`);
  assert.ok(
    german.some((row, index) => row.name !== english[index]?.name),
    "German names that are not the English ones",
  );
  for (const row of english) assert.equal(row.name, app.fake.world.items.get(row.id)?.name);
  const unnamed = (rows: Row[]) => rows.map(({ name: _, ...rest }) => rest);
  assert.deepEqual(unnamed(german), unnamed(english), "the same rows, only named otherwise");
});

Deno.test("priory_price_history and priory_flips name their items in the language asked, English by default", async () => {
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29), advance: "delays" });
  await using app = await startTestApp({ clock });
  await simulate(historyDeps({ kv: app.kv, clock }), new MovingMarket(), worldPriceIds(), 150);
  await using client = await connectClient(app.handler);
  const ids = [WELL_KNOWN.mysticCoin, WELL_KNOWN.globOfEctoplasm];
  const rows = async (lang?: string) =>
    (await call(client, "priory_price_history", lang === undefined ? { ids } : { ids, lang }))
      .history as Match[];
  assert.deepEqual((await rows()).map((row) => row.name), ["Mystic Coin", "Glob of Ectoplasm"]);
  assert.deepEqual((await rows("fr")).map((row) => row.name), [
    "Pièce mystique",
    "Boule d'ectoplasme",
  ]);
  assert.deepEqual((await rows("zh")).map((row) => row.name), ["神秘硬币", "球形灵质"]);

  const flips = async (lang?: string) =>
    (await call(client, "priory_flips", { minVolume: 0, ...(lang && { lang }) })).flips as Match[];
  const english = await flips();
  const spanish = await flips("es");
  assert.ok(english.length > 0, "two and a half hours of history give flips");
  assert.deepEqual(spanish.map((row) => row.id), english.map((row) => row.id));
  const world = localizedRecords(app.fake.world, "es");
  for (const [index, row] of spanish.entries()) {
    assert.equal(row.name, world.items.get(row.id)?.name, `flip ${row.id} in Spanish`);
    assert.equal(english[index]?.name, app.fake.world.items.get(row.id)?.name);
  }
});

Deno.test("no upstream request carries the caller's Accept-Language; every items read sends lang", async () => {
  await using app = await startTestApp();
  await using client = await connectClient(app.handler, {
    headers: { "Accept-Language": "de-DE,de;q=0.9" },
  });
  const items = await call(client, "gw2_items", { ids: [WELL_KNOWN.twilight] });
  assert.equal((items.items as Match[])[0]?.name, "Twilight", "English unless lang says otherwise");
  await call(client, "priory_recipe_tree", { itemId: WELL_KNOWN.twilight, lang: "fr" });
  assert.ok(app.fake.control.requests.length > 0);
  for (const request of app.fake.control.requests) {
    assert.equal(request.acceptLanguage, undefined, request.path);
    if (request.path === "/v2/items") assert.match(request.query, /(^|&)lang=(en|fr)(&|$)/u);
  }
});
