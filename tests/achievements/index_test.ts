/**
 * The achievement catalogue's layout and index, over the fake's real collection records: a
 * record packed and read back whole; chunks within KV's value budget; the item, skin and chain
 * lookups; names in every language, searchable as item names are.
 */
import assert from "node:assert/strict";
import {
  AchievementIndex,
  type IndexEntry,
  prerequisiteChain,
} from "../../src/achievements/index.ts";
import {
  achievementAt,
  CHUNK_JSON_BYTES,
  chunkPage,
  packAchievement,
  readChunk,
  toCatalogue,
} from "../../src/achievements/layout.ts";
import { AchievementSchema } from "../../src/gw2/schemas_achievements.ts";
import type { Lang } from "../../src/gw2/types.ts";
import { getWorld } from "../fake_gw2/mod.ts";
import { localizedAchievements, PLANTED } from "../fake_gw2/world/achievements.ts";

const world = getWorld().achievements;
const records = [...world.achievements.values()].map((record) => AchievementSchema.parse(record));

function entries(lang: Lang): IndexEntry[] {
  const named = localizedAchievements(world, lang).achievements;
  return records.map((record) => ({
    id: record.id,
    name: named.get(record.id)?.name ?? "",
    ...(lang === "en" ? { record: toCatalogue(record) } : {}),
  }));
}

const index = new AchievementIndex(
  entries("en"),
  new Map((["de", "fr", "es", "zh"] as const).map((lang) => [lang, entries(lang)])),
);

Deno.test("layout: a record packs and reads back whole, with what the lookups need", () => {
  const cosmos = records.find((record) => record.id === PLANTED.halfDone);
  assert.ok(cosmos !== undefined);
  const kept = toCatalogue(cosmos);
  assert.equal(kept.type, "ItemSet");
  assert.equal(kept.of, 54);
  assert.deepEqual(kept.rewardItems, [72083]);
  assert.equal(kept.bitItems.length, 54);
  const packed = packAchievement(kept);
  assert.deepEqual(achievementAt(packed, 0), { record: kept, end: packed.length });
  assert.equal(achievementAt(packed.slice(0, -1), 0), undefined, "a cut record does not read");
  const device = toCatalogue(records.find((record) => record.id === PLANTED.adInfinitum)!);
  assert.equal(device.bitSkins.length, 1, "a skin bit is kept apart from the items");
});

Deno.test("layout: a page's chunks stay within the value budget and read back in order", () => {
  const page = entries("en");
  const chunks = chunkPage(page);
  assert.ok(chunks.length > 1);
  for (const chunk of chunks) assert.ok(JSON.stringify(chunk).length <= CHUNK_JSON_BYTES);
  assert.deepEqual(chunks.flatMap(readChunk), page);
  const german = chunkPage(entries("de"));
  assert.equal(german.every((chunk) => chunk.packed === undefined), true);
  assert.deepEqual(german.flatMap(readChunk).map((entry) => entry.id), page.map((e) => e.id));
  assert.deepEqual(readChunk({ ids: [1, 2], names: ["a"] }), [], "a damaged chunk reads empty");
  assert.deepEqual(readChunk({ ids: [1], names: ["a"], packed: [2, 0, 1, 0, 0, 0, 0] }), []);
});

Deno.test("index: an item finds the achievements rewarding it, then those collecting it", () => {
  assert.deepEqual(index.byItem(72083), [PLANTED.halfDone], "the Gift of the Cosmos");
  assert.deepEqual(index.byItem(91193), [4805], "the Gift of Patience");
  const bit = records.find((record) => record.id === PLANTED.halfDone)?.bits?.[3]?.id ?? 0;
  assert.deepEqual(index.byItem(bit), [PLANTED.halfDone]);
  // The Baby Book's reward is a bit of A Nontraditional Family.
  assert.deepEqual(index.byItem(78246), [2913, 2974]);
  assert.deepEqual(index.byItem(1), []);
  assert.deepEqual(index.bySkin(2377), [PLANTED.adInfinitum]);
  assert.equal(index.byItem(96347).length, 2, "two fishers reward the same ambergris");
});

Deno.test("index: a chain follows prerequisites and the collections a step collects from", () => {
  assert.deepEqual(index.chain(4805), { ids: [4412, 4035], more: 0 }, "Coalescence III");
  assert.deepEqual(index.chain(PLANTED.auroraEmpowering), {
    ids: [PLANTED.auroraAwakening],
    more: 0,
  });
  // A Nontraditional Family collects the rewards of three siblings.
  const family = index.chain(2974);
  assert.deepEqual(family, { ids: [2933, 2913, 2943], more: 0 }, "in the order of its bits");
  assert.deepEqual(index.chain(2951), { ids: [2946], more: 0 }, "Tigris, fed by the Journal");
  assert.deepEqual(index.chain(PLANTED.halfDone), { ids: [], more: 0 });
  assert.deepEqual(index.chain(2974, 2), { ids: [2933, 2913], more: 1 });
});

Deno.test("prerequisiteChain: nearest first, each once, cycles end", () => {
  const before = new Map([[1, [2, 3]], [2, [4]], [3, [4, 1]], [4, [2]]]);
  assert.deepEqual(prerequisiteChain(1, (id) => before.get(id) ?? []), {
    ids: [2, 3, 4],
    more: 0,
  });
});

Deno.test("index: names in five languages, searched in all at once", () => {
  assert.equal(index.size, records.length);
  assert.deepEqual(index.languages, ["en", "de", "fr", "es", "zh"]);
  assert.equal(index.nameOf(PLANTED.halfDone, "de"), "Astralaria IV: Der Kosmos");
  const english = index.search("astralaria cosmos", 10);
  assert.equal(english[0]?.id, PLANTED.halfDone);
  const german = index.search("der kosmos", 10);
  assert.equal(german[0]?.id, PLANTED.halfDone);
  assert.equal(german[0]?.lang, "de");
  const chinese = index.search("\u5b87\u5b99", 10); // "cosmos"
  assert.equal(chinese[0]?.id, PLANTED.halfDone);
  assert.equal(index.search("nevermor", 10).length, 4, "a prefix finds the whole chain");
  assert.equal(index.search("astralaira", 10)[0]?.name.startsWith("Astralaria"), true, "a typo");
});

Deno.test("index: without other languages' names, a name falls back to English", () => {
  const englishOnly = new AchievementIndex(entries("en"), new Map());
  assert.deepEqual(englishOnly.languages, ["en"]);
  assert.equal(englishOnly.nameOf(PLANTED.halfDone, "fr"), "Astralaria IV: The Cosmos");
});
