/**
 * The achievement catalogue over KV: filled on demand from the English pages and published for
 * every instance, one fill joined by later callers, loaded whole by another instance, the
 * crawl's five-language generation loaded with its names, and a catalogue too old not used.
 */
import assert from "node:assert/strict";
import {
  AchievementCatalogue,
  type AchievementPageReader,
  englishEntries,
  HEAD_CHECK_MS,
  MAX_CATALOGUE_AGE_MS,
} from "../../src/achievements/catalogue.ts";
import { AchievementStore } from "../../src/achievements/store.ts";
import { Gw2UpstreamError } from "../../src/gw2/errors.ts";
import { type Achievement, AchievementSchema } from "../../src/gw2/schemas_achievements.ts";
import { type Lang, LANGUAGES } from "../../src/gw2/types.ts";
import { silentLogger } from "../../src/log.ts";
import { getWorld } from "../fake_gw2/mod.ts";
import { localizedAchievements, PLANTED } from "../fake_gw2/world/achievements.ts";
import { ManualClock } from "../support/clock.ts";
import { openMemoryKv } from "../support/kv.ts";

const world = getWorld().achievements;
const records: Achievement[] = [...world.achievements.values()].map((record) =>
  AchievementSchema.parse(record)
);

/** Pages of the fake's records, counting the reads. */
function pages(): { read: AchievementPageReader; calls: number[] } {
  const calls: number[] = [];
  return {
    calls,
    read: (page, pageSize) => {
      calls.push(page);
      return Promise.resolve({
        records: records.slice(page * pageSize, (page + 1) * pageSize),
        skipped: 0,
        pageTotal: Math.ceil(records.length / pageSize),
      });
    },
  };
}

function catalogue(kv: Deno.Kv, clock: ManualClock): AchievementCatalogue {
  const store = new AchievementStore({ kv, namespace: "http://gw2.test" });
  return new AchievementCatalogue({ store, clock, log: silentLogger });
}

Deno.test("achievement catalogue: filled on demand once, joined, and published for another instance", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 1_000_000 });
  const first = catalogue(kv, clock);
  assert.equal(await first.usable(), undefined, "nothing published yet");
  const reader = pages();
  const [a, b] = await Promise.all([first.fill(reader.read), first.fill(reader.read)]);
  assert.ok(a !== undefined && a === b, "the second caller joins the first fill");
  assert.deepEqual([...reader.calls].sort(), [0, 1, 2], "each page read once");
  assert.deepEqual(a.byItem(72083), [PLANTED.halfDone]);
  assert.deepEqual(await first.status(), {
    achievements: records.length,
    langs: ["en"],
    completedAt: 1_000_000,
  });
  const second = catalogue(kv, clock);
  const loaded = await second.usable();
  assert.equal(loaded?.size, records.length, "another instance loads it from KV");
  assert.deepEqual(loaded?.chain(4805), { ids: [4412, 4035], more: 0 });
  const none = pages();
  assert.equal(await second.fill(none.read), loaded, "a published catalogue is not filled again");
  assert.deepEqual(none.calls, []);
});

/** Pages in each language (the fake's names), counting the reads per language. */
function localizedPages(failing?: Lang): { read: AchievementPageReader; calls: Lang[] } {
  const calls: Lang[] = [];
  return {
    calls,
    read: (page, pageSize, lang) => {
      calls.push(lang);
      if (lang === failing) return Promise.reject(new Gw2UpstreamError("server_error", 503));
      const named = localizedAchievements(world, lang).achievements;
      return Promise.resolve({
        records: records.slice(page * pageSize, (page + 1) * pageSize).map((record) => ({
          ...record,
          name: named.get(record.id)?.name ?? record.name,
        })),
        skipped: 0,
        pageTotal: Math.ceil(records.length / pageSize),
      });
    },
  };
}

Deno.test("achievement catalogue: a name lookup fills every language, refilling an English-only one", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 1_000_000 });
  const instance = catalogue(kv, clock);
  // An item lookup: English alone (3 pages).
  const english = localizedPages();
  assert.deepEqual((await instance.fill(english.read))?.languages, ["en"]);
  assert.deepEqual(english.calls, ["en", "en", "en"]);
  // A name lookup: every language, in one generation published for every instance.
  const all = localizedPages();
  const index = await instance.fill(all.read, LANGUAGES);
  assert.deepEqual(index?.languages, [...LANGUAGES]);
  assert.equal(all.calls.length, 3 * LANGUAGES.length);
  assert.equal(index?.search("der kosmos", 1)[0]?.id, PLANTED.halfDone);
  assert.deepEqual((await catalogue(kv, clock).usable())?.languages, [...LANGUAGES]);
  // Held whole now: neither lookup reads again.
  const none = localizedPages();
  assert.equal(await instance.fill(none.read, LANGUAGES), index);
  assert.equal(await instance.fill(none.read), index);
  assert.deepEqual(none.calls, []);
});

Deno.test("achievement catalogue: a language that fails leaves the others usable", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 1_000_000 });
  const instance = catalogue(kv, clock);
  const index = await instance.fill(localizedPages("fr").read, LANGUAGES);
  assert.deepEqual(index?.languages, ["en", "de", "es", "zh"]);
  assert.equal(index?.search("kosmos", 1)[0]?.id, PLANTED.halfDone);
  // Not read again for every lookup while French keeps failing: the crawl brings it.
  const again = localizedPages("fr");
  assert.equal(await instance.fill(again.read, LANGUAGES), index);
  assert.deepEqual(again.calls, []);
  // Without English there is no catalogue.
  using other = await openMemoryKv();
  assert.equal(await catalogue(other, clock).fill(localizedPages("en").read, LANGUAGES), undefined);
});

Deno.test("achievement catalogue: a failed fill publishes nothing and says so", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 1_000_000 });
  const instance = catalogue(kv, clock);
  const failing: AchievementPageReader = (page) =>
    page === 1
      ? Promise.reject(new Gw2UpstreamError("server_error", 503))
      : pages().read(page, 200, "en");
  assert.equal(await instance.fill(failing), undefined);
  assert.equal(await new AchievementStore({ kv, namespace: "http://gw2.test" }).head(), undefined);
});

Deno.test("achievement catalogue: the crawl's generation brings every language's names", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 5_000_000 });
  const store = new AchievementStore({ kv, namespace: "http://gw2.test" });
  const op = kv.atomic();
  for (const lang of LANGUAGES) {
    const named = localizedAchievements(world, lang).achievements;
    const entries = lang === "en"
      ? englishEntries(records)
      : records.map(({ id }) => ({ id, name: named.get(id)?.name ?? "" }));
    // One page per language here; the crawl writes page by page.
    store.addPage(op, 7, lang, 0, entries);
  }
  store.publish(op, {
    generation: 7,
    completedAt: 5_000_000,
    count: records.length,
    langs: [...LANGUAGES],
  });
  assert.ok((await op.commit()).ok);
  const index = await catalogue(kv, clock).usable();
  assert.deepEqual(index?.languages, ["en", "de", "fr", "es", "zh"]);
  assert.equal(index?.search("kosmos", 1)[0]?.id, PLANTED.halfDone);
  assert.equal(index?.nameOf(PLANTED.halfDone, "fr"), "Astralaria IV\u00a0: Le cosmos");
});

Deno.test("achievement catalogue: a week-old catalogue is not used; a newer head is loaded", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 1_000_000 });
  const instance = catalogue(kv, clock);
  assert.ok(await instance.fill(pages().read) !== undefined);
  clock.advance(MAX_CATALOGUE_AGE_MS);
  assert.equal(await instance.usable(), undefined);
  // Another instance publishes a fresh one: seen at the next head check.
  const other = catalogue(kv, clock);
  assert.ok(await other.fill(pages().read) !== undefined);
  clock.advance(HEAD_CHECK_MS);
  assert.equal((await instance.usable())?.size, records.length);
});

Deno.test("achievement catalogue: a generation incomplete in KV is not loaded; the copy held stays", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: 1_000_000 });
  const instance = catalogue(kv, clock);
  const filled = await instance.fill(pages().read);
  const store = new AchievementStore({ kv, namespace: "http://gw2.test" });
  // A head naming more records than its pages hold (read while being written, or damaged).
  const op = kv.atomic();
  store.addPage(op, 9, "en", 0, englishEntries(records.slice(0, 10)));
  store.publish(op, { generation: 9, completedAt: 1_000_000, count: 400, langs: ["en"] });
  assert.ok((await op.commit()).ok);
  clock.advance(HEAD_CHECK_MS);
  assert.equal(await instance.usable(), filled, "the filled copy is kept");
  assert.equal(await catalogue(kv, clock).usable(), undefined, "a fresh instance has none");
});
