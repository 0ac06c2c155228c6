/**
 * `priory_achievements` over the real stack (MCP handler, GW2 client, in-memory KV, the fake):
 * the planted half-done collection's missing items and what buying them costs, an item lookup
 * from a precursor gift to its collection and chain, names in another language, the answer
 * without a key or without `progression`, and the refusals.
 */
import assert from "node:assert/strict";
import { getWorld, TEST_KEYS } from "../fake_gw2/mod.ts";
import {
  FILLER_ACHIEVEMENT_COUNT,
  localizedAchievements,
  PLANTED,
} from "../fake_gw2/world/achievements.ts";
import { LANGUAGES } from "../../src/gw2/types.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";

type Row = {
  id: number;
  name: string;
  done?: boolean;
  progress?: number;
  of: number;
  missing: { type: string; id?: number; name?: string; unit?: number }[];
  missingMore?: number;
  missingCost: number;
  rewards: { type: string; id?: number; name?: string; count?: number }[];
  prerequisites: { id: number; name?: string; done?: boolean }[];
};
type Result = {
  achievements: Row[];
  more?: number;
  missing_ids?: number[];
  unread?: { part: string; scope: string }[];
  catalogue?: { achievements: number; langs: string[] };
};

const world = getWorld();

async function call(app: TestApp, args: Record<string, unknown>, key?: string) {
  await using client = await connectClient(
    app.handler,
    key === undefined ? {} : { headers: { "X-GW2-Key": key } },
  );
  return await client.callTool({ name: "priory_achievements", arguments: args });
}

async function answer(app: TestApp, args: Record<string, unknown>, key?: string) {
  const result = await call(app, args, key);
  assert.equal(result.isError, undefined, textOf(result));
  // The structured result, checked field by field by the caller.
  return result.structuredContent as Result;
}

/** The fake's lowest sell listing of an item, when it trades. */
function unit(id: number): number | undefined {
  return world.prices.get(id)?.sells.unit_price;
}

Deno.test("priory_achievements: the half-done collection's missing items and the cost of buying them", async () => {
  await using app = await startTestApp();
  const result = await answer(app, { ids: [PLANTED.halfDone] }, TEST_KEYS.full);
  const [row] = result.achievements;
  assert.ok(row !== undefined);
  assert.equal(row.name, "Astralaria IV: The Cosmos");
  assert.deepEqual([row.done, row.progress, row.of], [false, 27, 54]);
  const bits = world.achievements.achievements.get(PLANTED.halfDone)?.bits ?? [];
  const missing = bits.filter((_, index) => index % 2 === 1).map((bit) => bit.id ?? 0);
  assert.deepEqual(row.missing.map((bit) => bit.id), missing, "the 27 odd bits, in game order");
  for (const bit of row.missing) {
    assert.equal(bit.type, "Item");
    assert.equal(bit.name, world.items.get(bit.id ?? 0)?.name);
    assert.equal(bit.unit, unit(bit.id ?? 0), `unit of ${bit.id}`);
  }
  const cost = missing.reduce((sum, id) => sum + (unit(id) ?? 0), 0);
  assert.equal(row.missingCost, cost);
  assert.ok(cost > 0 && row.missing.some((bit) => bit.unit === undefined));
  assert.deepEqual(row.rewards, [{
    type: "Item",
    id: 72083,
    name: "Gift of the Cosmos",
    count: 1,
  }]);
  assert.equal(result.unread, undefined);
});

Deno.test("priory_achievements: a precursor gift leads to its collection and the chain before it", async () => {
  await using app = await startTestApp();
  // The Gift of Patience: Coalescence III, after II (begun) and I (done).
  const patience = await answer(app, { item: 91193 }, TEST_KEYS.full);
  assert.deepEqual(patience.achievements.map((row) => row.id), [4805]);
  assert.deepEqual(patience.achievements[0]?.prerequisites, [
    { id: 4412, name: "Coalescence II: The Gift", done: false },
    { id: 4035, name: "Coalescence I: Unbridled", done: true },
  ]);
  // The Spark of Sentience: Aurora II, after Aurora: Awakening (done).
  const spark = await answer(app, { item: 81729 }, TEST_KEYS.full);
  assert.equal(spark.achievements[0]?.id, PLANTED.auroraEmpowering);
  assert.deepEqual(spark.achievements[0]?.prerequisites, [
    { id: PLANTED.auroraAwakening, name: "Aurora: Awakening", done: true },
  ]);
  // The Gift of the Cosmos: its collection, half done.
  const cosmos = await answer(app, { item: 72083 }, TEST_KEYS.full);
  assert.deepEqual(cosmos.achievements.map((row) => [row.id, row.progress]), [
    [PLANTED.halfDone, 27],
  ]);
  // A bit of a collection finds the collection too.
  const bit = world.achievements.achievements.get(PLANTED.halfDone)?.bits?.[1]?.id ?? 0;
  assert.equal((await answer(app, { item: bit })).achievements[0]?.id, PLANTED.halfDone);
});

Deno.test("priory_achievements: a name in any language, answered in the one asked for", async () => {
  await using app = await startTestApp();
  const english = await answer(app, { query: "astralaria cosmos" });
  assert.equal(english.achievements[0]?.id, PLANTED.halfDone);
  const aurora = await answer(app, { query: "Aurora" });
  assert.deepEqual(aurora.achievements.map((row) => row.id).sort(), [3489, 3522]);
  // The catalogue filled on demand holds English; the record comes in the language asked.
  const german = await answer(app, { ids: [PLANTED.halfDone], lang: "de" }, TEST_KEYS.full);
  assert.equal(german.achievements[0]?.name, "Astralaria IV: Der Kosmos");
  const reward = german.achievements[0]?.rewards[0];
  assert.equal(reward?.name, "Gabe des Kosmos");
  const tasks = await answer(app, { ids: [50_008], lang: "fr" });
  assert.notEqual(tasks.achievements[0]?.missing[0]?.name, "Find the hidden cache");
});

Deno.test("priory_achievements: a name in each of the five languages on a fresh server", async () => {
  await using app = await startTestApp();
  // No crawl has run: the first name lookup fills the catalogue with every language's names.
  for (const lang of LANGUAGES) {
    const name = localizedAchievements(world.achievements, lang).achievements.get(3489)?.name ?? "";
    const found = await answer(app, { query: name, lang }, TEST_KEYS.full);
    assert.deepEqual(found.achievements.map((row) => [row.id, row.name])[0], [3489, name], lang);
    // The name's last word alone ("Ermächtigung", "赋能"): in no other language's name.
    const word = name.split(/[\s\uff1a:]+/).at(-1) ?? "";
    assert.equal(
      (await answer(app, { query: word })).achievements[0]?.id,
      3489,
      `${lang}: ${word}`,
    );
  }
  assert.deepEqual((await app.achievements.status()).langs, [...LANGUAGES]);
});

Deno.test("priory_achievements without a key or progression: the whole collection, and unread says why", async () => {
  await using app = await startTestApp();
  for (const key of [undefined, TEST_KEYS.noWallet]) {
    const result = await answer(app, { ids: [PLANTED.auroraAwakening] }, key);
    const [row] = result.achievements;
    assert.equal(row?.done, undefined);
    assert.equal(row?.progress, undefined);
    assert.equal(row?.missing.length, 7, "every bit");
    assert.deepEqual(result.unread, [{ part: "progress", scope: "progression" }]);
  }
  const done = await answer(app, { ids: [PLANTED.auroraAwakening] }, TEST_KEYS.full);
  assert.deepEqual([done.achievements[0]?.done, done.achievements[0]?.missing], [true, []]);
});

Deno.test("priory_achievements: lists are bounded and say when cut; the default answers stay small", async () => {
  await using app = await startTestApp();
  // Two fishers reward the same ambergris: both listed.
  const fishers = await answer(app, { item: 96347 });
  assert.equal(fishers.achievements.length, 2);
  const all = await answer(app, { query: "Nevermore" });
  assert.equal(all.achievements.length, 4);
  const listed = all.achievements.reduce((sum, row) => sum + row.missing.length, 0);
  assert.ok(listed <= 80, `${listed} missing bits listed`);
  assert.ok(all.achievements.some((row) => (row.missingMore ?? 0) > 0));
  const bytes = new TextEncoder().encode(JSON.stringify(all)).length;
  assert.ok(bytes / 4 <= 2_500, `${bytes / 4} tokens`);
  const many = await answer(app, {
    ids: Array.from({ length: 100 }, (_, index) => 50_001 + index),
  });
  assert.equal(many.achievements.length, 100);
  const none = await answer(app, { item: 1 });
  assert.deepEqual(none.achievements, []);
  assert.equal(none.catalogue?.achievements, 37 + FILLER_ACHIEVEMENT_COUNT);
});

Deno.test("priory_achievements refuses what it cannot answer, naming the remedy", async () => {
  await using app = await startTestApp();
  const both = await call(app, { query: "Aurora", item: 81729 });
  assert.equal(both.isError, true);
  assert.match(textOf(both), /exactly one of query/);
  const unknown = await call(app, { ids: [999_999] });
  assert.equal(unknown.isError, true);
  assert.match(textOf(unknown), /^Not found: the GW2 API has no achievement with id 999999/);
  app.fake.control.injectFault("server_error", { endpoint: "/v2/achievements", times: Infinity });
  const down = await call(app, { query: "Aurora" });
  assert.equal(down.isError, true);
  assert.match(textOf(down), /^Not ready: the achievement catalogue/);
  const partial = await answer(app, { ids: [3522, 999_999] }).catch(() => undefined);
  assert.equal(partial, undefined, "the records cannot be read while /v2/achievements fails");
});
