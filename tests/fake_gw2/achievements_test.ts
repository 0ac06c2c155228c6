/**
 * The fake's achievements as the GW2 API serves them: real collection records (ids, names, bits,
 * rewards, prerequisites) with filler, paged and by ids, localized names; the skins, minis and
 * items their bits and rewards name, all resolvable; each account's progress behind
 * `progression`, the main account's collection half done; `/v2.json` in the real format.
 */
import assert from "node:assert/strict";
import { asArray, asRecord, bearer, errorBody, get, idsOf } from "./_support.ts";
import { API_LIST } from "./api_list.ts";
import { createFakeGw2, TEST_KEYS } from "./mod.ts";
import { FILLER_ACHIEVEMENT_COUNT, FILLER_SKIN_COUNT, PLANTED } from "./world/achievements.ts";
import { buildWorld } from "./world/world.ts";

const fake = createFakeGw2({ rateBurst: Infinity });
const world = fake.world;
const records = world.achievements.achievements;

Deno.test("fake: /v2/achievements carries the real collection records and their chains", async () => {
  const cosmos = asRecord((await get(fake, `/v2/achievements/${PLANTED.halfDone}`)).body);
  assert.equal(cosmos.name, "Astralaria IV: The Cosmos");
  assert.equal(cosmos.type, "ItemSet");
  assert.equal(asArray(cosmos.bits).length, 54);
  assert.deepEqual(cosmos.rewards, [{ type: "Item", id: 72083, count: 1 }]);
  assert.deepEqual(Object.keys(cosmos).slice(-4), ["flags", "bits", "tiers", "rewards"]);
  const empowering = asRecord((await get(fake, `/v2/achievements/3489`)).body);
  assert.deepEqual(empowering.prerequisites, [PLANTED.auroraAwakening]);
  const culmination = asRecord((await get(fake, `/v2/achievements/4805`)).body);
  assert.deepEqual(culmination.prerequisites, [4412]);
  // Every prerequisite named is served: the chains are carried to their start.
  for (const record of records.values()) {
    for (const id of record.prerequisites ?? []) {
      assert.ok(records.has(id), `${record.id} -> ${id}`);
    }
  }
});

Deno.test("fake: /v2/achievements pages past 200 and answers ids with the bulk rules", async () => {
  const all = asArray((await get(fake, "/v2/achievements")).body);
  assert.equal(all.length, 37 + FILLER_ACHIEVEMENT_COUNT);
  const first = await get(fake, "/v2/achievements?page=0&page_size=200");
  assert.equal(first.headers.get("x-page-total"), "3");
  assert.equal(asArray(first.body).length, 200);
  const last = await get(fake, "/v2/achievements?page=2&page_size=200");
  assert.equal(asArray(last.body).length, all.length - 400);
  assert.equal((await get(fake, "/v2/achievements?page=3&page_size=200")).status, 400);
  const partial = await get(fake, "/v2/achievements?ids=2268,1,3522");
  assert.equal(partial.status, 206);
  assert.deepEqual(idsOf(partial.body), [2268, 3522]);
  assert.equal((await get(fake, "/v2/achievements?ids=all")).status, 400);
});

Deno.test("fake: achievement names in the five languages, the chain's legendary by its real name", async () => {
  const name = async (id: number, lang: string) =>
    asRecord((await get(fake, `/v2/achievements/${id}?lang=${lang}`)).body).name;
  assert.equal(await name(PLANTED.halfDone, "de"), "Astralaria IV: Der Kosmos");
  assert.equal(await name(PLANTED.halfDone, "zh"), "星域 IV：宇宙");
  assert.equal(await name(2183, "de"), "Düsternis III: Dämmerung");
  assert.equal(await name(4805, "fr"), "Coalescence III\u00a0: Apogée");
  assert.equal(await name(50001, "fr"), "Explorateur de Kryte");
  const english = asRecord((await get(fake, "/v2/achievements/50008")).body);
  const german = asRecord((await get(fake, "/v2/achievements/50008?lang=de")).body);
  assert.notEqual(german.name, english.name);
  assert.notDeepEqual(german.bits, english.bits, "text bits are localized too");
});

Deno.test("fake: an empty bit, as upstream sends for some collections", () => {
  const quirky = [...records.values()].filter((record) =>
    record.bits?.some((bit) => Object.keys(bit).length === 0)
  );
  assert.equal(quirky.length, 1);
});

Deno.test("fake: every item, skin and mini an achievement names is served", async () => {
  const items = new Set<number>();
  const skins = new Set<number>();
  const minis = new Set<number>();
  for (const record of records.values()) {
    for (const bit of record.bits ?? []) {
      if (bit.id === undefined) continue;
      ({ Item: items, Skin: skins, Minipet: minis })[bit.type ?? ""]?.add(bit.id);
    }
    for (const reward of record.rewards ?? []) {
      if (reward.type === "Item" && reward.id !== undefined) items.add(reward.id);
    }
  }
  for (const id of items) assert.ok(world.items.has(id), `item ${id}`);
  assert.equal(skins.size, 3);
  assert.equal(minis.size, 2);
  for (const id of skins) assert.ok(world.achievements.skins.has(id), `skin ${id}`);
  for (const mini of world.achievements.minis.values()) assert.ok(world.items.has(mini.item_id));
  const got = await get(fake, `/v2/minis?ids=${[...minis].join(",")}&lang=de`);
  assert.equal(got.headers.get("content-language"), "de");
  assert.equal(asArray(got.body).length, 2);
  // Some collection items trade (priced), most are account bound.
  const bits = records.get(PLANTED.halfDone)?.bits ?? [];
  const tradeable = bits.filter((bit) => world.prices.has(bit.id ?? 0)).length;
  assert.ok(tradeable > 5 && tradeable < bits.length / 2, `${tradeable} tradeable`);
});

Deno.test("fake: /v2/skins has more than 50 entries, paged at 50 by default", async () => {
  const ids = asArray((await get(fake, "/v2/skins")).body);
  assert.equal(ids.length, 3 + FILLER_SKIN_COUNT);
  const page = await get(fake, "/v2/skins?page=1");
  assert.equal(page.headers.get("x-page-size"), "50");
  assert.equal(page.headers.get("x-page-total"), "6");
  assert.deepEqual(idsOf(page.body), ids.slice(50, 100));
});

Deno.test("fake: /v2/account/achievements needs progression and holds the planted progress", async () => {
  const denied = await get(fake, "/v2/account/achievements", bearer(TEST_KEYS.accountOnly));
  assert.equal(denied.status, 403);
  assert.equal(denied.text, errorBody("requires scope progression"));
  assert.equal((await get(fake, "/v2/account/achievements")).status, 401);
  const got = await get(fake, "/v2/account/achievements", bearer(TEST_KEYS.full));
  assert.equal(got.status, 200);
  const entries = new Map(
    asArray(got.body).map((value) => {
      const entry = asRecord(value);
      return [Number(entry.id), entry];
    }),
  );
  const half = entries.get(PLANTED.halfDone);
  assert.deepEqual(half, {
    id: PLANTED.halfDone,
    bits: Array.from({ length: 27 }, (_, index) => index * 2),
    current: 27,
    max: 54,
    done: false,
  });
  assert.deepEqual(entries.get(PLANTED.auroraAwakening), {
    id: PLANTED.auroraAwakening,
    current: 7,
    max: 7,
    done: true,
  });
  assert.equal(entries.has(4805), false, "Coalescence III not begun");
  assert.ok(entries.size > 100);
  const narrowed = await get(
    fake,
    `/v2/account/achievements?ids=${PLANTED.halfDone},4805`,
    bearer(TEST_KEYS.full),
  );
  assert.equal(narrowed.status, 206);
  assert.deepEqual(idsOf(narrowed.body), [PLANTED.halfDone]);
  const veteran = await get(fake, "/v2/account/achievements", bearer(TEST_KEYS.veteran));
  const done = asArray(veteran.body).map(asRecord).find((entry) => entry.id === PLANTED.halfDone);
  assert.equal(done?.done, true);
});

Deno.test("fake: /v2/account/mastery/points needs progression", async () => {
  assert.equal(
    (await get(fake, "/v2/account/mastery/points", bearer(TEST_KEYS.noWallet))).status,
    403,
  );
  const got = asRecord(
    (await get(fake, "/v2/account/mastery/points", bearer(TEST_KEYS.full))).body,
  );
  assert.ok(asArray(got.totals).length > 0);
});

Deno.test("fake: /v2.json lists routes in the real format, the fake's among them", async () => {
  const got = asRecord((await get(fake, "/v2.json")).body);
  assert.deepEqual(Object.keys(got), ["langs", "routes", "schema_versions"]);
  const routes = asArray(got.routes).map(asRecord);
  for (const route of routes) {
    assert.deepEqual(Object.keys(route), ["path", "lang", "auth", "active"]);
    assert.match(String(route.path), /^\/v2\/[a-z0-9/:_]+$/u);
  }
  const byPath = new Map(routes.map((route) => [route.path, route]));
  assert.deepEqual(byPath.get("/v2/account/achievements"), {
    path: "/v2/account/achievements",
    lang: false,
    auth: true,
    active: true,
  });
  assert.equal(byPath.get("/v2/skins")?.lang, true);
  assert.equal(byPath.get("/v2/guild/:id")?.auth, false);
  assert.ok(routes.some((route) => route.active === false));
  // Every endpoint the fake serves is listed (the list says which need a key).
  for (const path of ["/v2/items", "/v2/account/bank", "/v2/characters/:id/inventory"]) {
    assert.ok(byPath.has(path), path);
  }
  assert.equal(API_LIST.routes.length, routes.length);
});

Deno.test("fake: the achievements part of the world builds deterministically", () => {
  const again = buildWorld().achievements;
  assert.equal(
    JSON.stringify([...again.achievements.values()]),
    JSON.stringify([...records.values()]),
  );
  assert.equal(JSON.stringify(again.main), JSON.stringify(world.achievements.main));
  assert.equal(JSON.stringify(again.items), JSON.stringify(world.achievements.items));
});
