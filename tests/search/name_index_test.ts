/**
 * The name index over Deno KV: persistence across handles and restarts, write-through and bulk
 * writes within KV's limits, incremental refresh, the catalogue marker, contention, and
 * failures that must not escape.
 */
import assert from "node:assert/strict";
import { systemClock } from "../../src/async/clock.ts";
import type { Pacer } from "../../src/async/slices.ts";
import { silentLogger } from "../../src/log.ts";
import { MAX_CATALOGUE_AGE_MS } from "../../src/catalogue/recipe_catalogue.ts";
import {
  CATALOGUE_COMPLETE_FOR_MS,
  NameIndex,
  type NameIndexOptions,
  NameIndexUnavailableError,
  SYNC_BOUNDS,
} from "../../src/search/name_index.ts";
import { BUCKET_SPAN, NAME_MAX_LENGTH, NameStore } from "../../src/search/name_store.ts";
import type { NameEntry } from "../../src/search/name_table.ts";
import { ManualClock, settleOnClock } from "../support/clock.ts";
import { openMemoryKv, stallingKv, tempKvFile } from "../support/kv.ts";
import { captureLogs, logRecords } from "../support/log.ts";
import { seedSyntheticNames, syntheticNameEntries } from "../support/synthetic_names.ts";

const NAMESPACE = "http://gw2.test";
const ECTO: NameEntry = {
  id: 19721,
  name: "Glob of Ectoplasm",
  rarity: "Exotic",
  type: "CraftingMaterial",
};
const SUNRISE: NameEntry = { id: 30703, name: "Sunrise", rarity: "Legendary", type: "Weapon" };

function index(kv: Deno.Kv, options: Partial<NameIndexOptions> = {}): NameIndex {
  return new NameIndex({
    kv,
    namespace: NAMESPACE,
    log: silentLogger,
    clock: new ManualClock({ advance: "delays" }),
    ...options,
  });
}

/** `kv`, or `stalled` while `stalling()` says so. */
function switchable(kv: Deno.Kv, stalled: Deno.Kv, stalling: () => boolean): Deno.Kv {
  return new Proxy(kv, {
    get(_target, property) {
      const source = stalling() ? stalled : kv;
      const value: unknown = Reflect.get(source, property, source);
      return typeof value === "function" ? value.bind(source) : value;
    },
  });
}

async function firstId(names: NameIndex, query: string): Promise<number | undefined> {
  return (await names.search(query, 5)).matches[0]?.id;
}

Deno.test("NameIndex: a name written through one handle is found through another on the same KV file", async () => {
  await using file = await tempKvFile();
  using kvA = await Deno.openKv(file.path);
  using kvB = await Deno.openKv(file.path);
  const [a, b] = [index(kvA), index(kvB)];
  assert.deepEqual(await b.status(), { names: 0, complete: false }, "B loads an empty index");
  await a.record([ECTO]);
  assert.equal(await firstId(b, "glob of ecto"), ECTO.id, "B sees A's write on its next search");
  await b.record([SUNRISE]);
  assert.equal(await firstId(a, "sunrise"), SUNRISE.id, "and the other way round");
  assert.equal((await a.status()).names, 2);
});

Deno.test("NameIndex: the names survive a restart (a new handle on the same file)", async () => {
  await using file = await tempKvFile();
  {
    using kv = await Deno.openKv(file.path);
    await index(kv).record([ECTO, SUNRISE]);
  }
  using kv = await Deno.openKv(file.path);
  const names = index(kv);
  assert.equal(await firstId(names, "GLOB OF ECTOPLASM"), ECTO.id);
  assert.deepEqual(await names.lookup(SUNRISE.id), {
    entry: SUNRISE,
    status: { names: 2, complete: false },
  });
});

Deno.test("NameIndex keeps the names of different upstreams apart", async () => {
  using kv = await openMemoryKv();
  await index(kv).record([ECTO]);
  const other = index(kv, { namespace: "https://api.guildwars2.com" });
  assert.deepEqual(await other.status(), { names: 0, complete: false });
});

Deno.test("NameIndex.putMany() bulk-writes a catalogue within KV's limits and reports changes", async () => {
  using kv = await openMemoryKv();
  const names = index(kv);
  const entries = syntheticNameEntries(20_000);
  // 20,000 names over ~160 buckets: many commits, each within 1,000 mutations and 800 KB
  // (KV throws beyond them, in memory as on Deploy).
  assert.equal(await names.putMany(entries), entries.length);
  assert.equal(await names.putMany(entries), 0, "unchanged entries are not rewritten");
  const renamed = { ...ECTO, name: "Glob of Renamed Ectoplasm" };
  assert.equal(await names.putMany([renamed]), 1);
  const fresh = index(kv);
  assert.equal((await fresh.status()).names, entries.length);
  assert.equal(await firstId(fresh, "renamed ectoplasm"), ECTO.id);
});

Deno.test("NameIndex stores a bucket of the longest names within KV's 64 KiB value limit", async () => {
  using kv = await openMemoryKv();
  // Two-byte characters (UTF-16 in KV's encoding) and names longer than the cap, in one bucket.
  const long = (id: number) => ({
    id,
    name: `Ŧ${id} ${"é".repeat(300)}`,
    rarity: "R".repeat(99),
    type: "T".repeat(99),
  });
  const bucket = Array.from({ length: BUCKET_SPAN }, (_, offset) => long(BUCKET_SPAN * 5 + offset));
  const names = index(kv);
  assert.equal(await names.putMany(bucket), BUCKET_SPAN);
  const { entry } = await index(kv).lookup(BUCKET_SPAN * 5);
  assert.equal(entry?.name.length, NAME_MAX_LENGTH, "names are capped, not dropped");
});

Deno.test("NameIndex marks the catalogue complete for every instance", async () => {
  using kv = await openMemoryKv();
  const [crawler, reader] = [index(kv), index(kv)];
  await reader.record([ECTO]);
  assert.equal((await reader.status()).complete, false);
  await crawler.markCatalogueComplete(Date.UTC(2026, 10, 29));
  assert.deepEqual(await reader.status(), {
    names: 1,
    complete: true,
    completedAt: Date.UTC(2026, 10, 29),
  });
});

Deno.test("NameIndex: a pass keeps the catalogue complete for eight days; the next pass re-earns it", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const [crawler, reader] = [index(kv, { clock }), index(kv, { clock })];
  await reader.record([ECTO]);
  const firstPass = clock.now();
  await crawler.markCatalogueComplete(firstPass);
  assert.equal(CATALOGUE_COMPLETE_FOR_MS, 8 * 24 * 60 * 60_000);
  clock.advance(CATALOGUE_COMPLETE_FOR_MS - 1);
  assert.deepEqual(await reader.status(), { names: 1, complete: true, completedAt: firstPass });
  clock.advance(1);
  assert.deepEqual(
    await reader.status(),
    { names: 1, complete: false, completedAt: firstPass },
    "eight days without a pass: no longer complete, and it says when it last was",
  );
  const secondPass = clock.now();
  await crawler.markCatalogueComplete(secondPass);
  assert.deepEqual(await reader.status(), { names: 1, complete: true, completedAt: secondPass });
});

Deno.test("NameIndex: the completeness bound is the recipe catalogue's", () => {
  assert.equal(CATALOGUE_COMPLETE_FOR_MS, MAX_CATALOGUE_AGE_MS);
});

Deno.test("NameStore.changes() re-reads only the buckets that changed since a read", async () => {
  using kv = await openMemoryKv();
  const store = new NameStore({ kv, namespace: NAMESPACE, clock: new ManualClock() });
  await store.merge(syntheticNameEntries(2_000));
  const loaded = await store.head();
  const entries: NameEntry[] = [];
  assert.equal(await store.readLanguage("en", (bucket) => entries.push(...bucket)), 2_000);
  assert.ok(entries.every((entry, index) => index === 0 || entry.id > entries[index - 1]!.id));
  assert.equal(await store.stamp(), loaded.stamp);
  const unchanged = await store.changes(loaded.versions);
  assert.deepEqual([...unchanged.entries], [], "nothing changed, nothing read");
  await store.merge([{ id: 1, name: "Changed", rarity: "Fine", type: "Trophy" }]);
  await store.merge([{ id: 1, name: "Geändert", rarity: "Fine", type: "Trophy" }], "de");
  assert.notEqual(await store.stamp(), loaded.stamp, "a write moves the stamp");
  const changed = await store.changes(loaded.versions);
  assert.deepEqual([...changed.entries.keys()], ["en", "de"], "only the languages written");
  const english = changed.entries.get("en") ?? [];
  assert.ok(english.every((entry) => entry.id < BUCKET_SPAN), "only bucket 0 is read");
  assert.ok(english.some((entry) => entry.name === "Changed"));
  assert.deepEqual(changed.entries.get("de")?.map((entry) => entry.name), ["Geändert"]);
});

/** `kv`, counting the name buckets `getMany` reads (the refresh's cost). */
function countingBuckets(kv: Deno.Kv): { kv: Deno.Kv; buckets: () => number } {
  let read = 0;
  const counted = new Proxy(kv, {
    get(target, property) {
      if (property === "getMany") {
        return (keys: Deno.KvKey[], options?: { consistency?: Deno.KvConsistencyLevel }) => {
          read += keys.filter((key) => key.includes("bucket")).length;
          return target.getMany(keys, options);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { kv: counted, buckets: () => read };
}

Deno.test("NameIndex does not read its own writes back; another instance's it does", async () => {
  using kv = await openMemoryKv();
  const counting = countingBuckets(kv);
  const names = index(counting.kv);
  await names.status();
  // The crawl's shape: a language's names in bulk, then the write-through of a few.
  const entries = syntheticNameEntries(2_000);
  await names.putMany(entries, "de");
  await names.record([{ ...ECTO, name: "Ektoplasmabatzen" }], "de");
  const written = counting.buckets();
  assert.equal((await names.search("Ektoplasmabatzen", 1)).matches[0]?.id, ECTO.id);
  assert.equal(counting.buckets() - written, 0, "the refresh after its own writes reads no bucket");
  // Another instance writes bucket 0; then this one writes it too, from the version it held.
  await index(kv).record([{ id: 1, name: "Anderswo", rarity: "Fine", type: "Trophy" }], "de");
  await names.record([{ id: 2, name: "Hier", rarity: "Fine", type: "Trophy" }], "de");
  assert.equal((await names.search("Anderswo", 1)).matches[0]?.id, 1, "the other's write is read");
  assert.equal((await names.search("Hier", 1)).matches[0]?.id, 2);
});

Deno.test("NameIndex.record() skips what it already holds: no commit, the stamp stays", async () => {
  using kv = await openMemoryKv();
  const names = index(kv);
  await names.record([ECTO]);
  await names.status();
  const store = new NameStore({ kv, namespace: NAMESPACE, clock: new ManualClock() });
  const stamp = await store.stamp();
  await names.record([{ ...ECTO }]);
  assert.equal(await store.stamp(), stamp);
  await names.record([{ ...ECTO, rarity: "Legendary" }]);
  assert.notEqual(await store.stamp(), stamp, "a changed rarity is written");
});

Deno.test("NameIndex.record() of names it already holds does not touch KV", async () => {
  const kv = await openMemoryKv();
  const { log, lines } = captureLogs();
  const names = index(kv, { log });
  await names.record([ECTO]);
  await names.status();
  kv.close();
  await names.record([{ ...ECTO }]);
  assert.deepEqual(logRecords(lines, "name index write-through failed"), []);
});

Deno.test("NameIndex: concurrent writers on one KV file lose nothing", async () => {
  await using file = await tempKvFile();
  using kvA = await Deno.openKv(file.path);
  using kvB = await Deno.openKv(file.path);
  // Real time, by design: two handles on one SQLite file also collide as "database is locked",
  // which only a backoff that really waits resolves.
  const [a, b] = [index(kvA, { clock: systemClock }), index(kvB, { clock: systemClock })];
  // The same buckets from both handles, interleaved: their commits race on the manifest and
  // the loser retries; within one instance, calls arriving together share a commit.
  const entries = syntheticNameEntries(200);
  const calls = entries.map((entry, position) => (position % 2 === 0 ? a : b).record([entry]));
  calls.push(a.putMany(entries.slice(0, 10)).then(() => undefined));
  await Promise.all(calls);
  assert.equal((await index(kvA).status()).names, 200);
});

Deno.test("NameIndex.record() never throws: a failed write is logged", async () => {
  const kv = await openMemoryKv();
  const { log, lines } = captureLogs();
  const names = index(kv, { log });
  kv.close();
  await names.record([ECTO]);
  assert.equal(logRecords(lines, "name index write-through failed").length, 1);
});

Deno.test("NameIndex: search before any load with KV failing is an unavailable error; after, a stale copy", async () => {
  const kv = await openMemoryKv();
  const names = index(kv);
  await names.record([ECTO]);
  assert.equal(await firstId(names, "ecto"), ECTO.id);
  kv.close();
  assert.equal(await firstId(names, "ecto"), ECTO.id, "a failed refresh serves what is held");
  await assert.rejects(() => index(kv).search("ecto", 5), NameIndexUnavailableError);
});

Deno.test("NameIndex: a stalled KV costs a search the 2 s bound, then it answers from the copy held", async () => {
  const kv = await openMemoryKv();
  const clock = new ManualClock();
  const { log, lines } = captureLogs(clock);
  const stalled = stallingKv(kv, ["get", "getMany"]);
  let stall = false;
  const switching = switchable(kv, stalled, () => stall);
  const names = index(switching, { log, timeout: { ms: 2_000, clock } });
  await names.record([ECTO]);
  assert.equal(await firstId(names, "ecto"), ECTO.id);
  stall = true;
  const search = await settleOnClock(names.search("ecto", 5), clock);
  assert.ok(search.ok);
  assert.equal(search.value.matches[0]?.id, ECTO.id);
  assert.equal(search.elapsedMs, 2_000);
  assert.equal(logRecords(lines, "name index refresh slow; searching the copy held").length, 1);
  kv.close();
});

Deno.test("NameIndex: a first load on a stalled KV is given up after its bound, and the next search retries", async () => {
  const kv = await openMemoryKv();
  await index(kv).record([ECTO]);
  const clock = new ManualClock();
  const { log, lines } = captureLogs(clock);
  let stall = true;
  const stalled = stallingKv(kv, ["get", "getMany"]);
  const switching = switchable(kv, stalled, () => stall);
  const names = index(switching, { log, timeout: { ms: 2_000, clock } });
  const first = await settleOnClock(names.search("ecto", 5), clock);
  assert.ok(!first.ok && first.error instanceof NameIndexUnavailableError);
  assert.equal(first.elapsedMs, 2_000 * SYNC_BOUNDS);
  assert.equal(logRecords(lines, "name index load failed").length, 1);
  stall = false;
  assert.equal(await firstId(names, "ecto"), ECTO.id, "KV answering again: loaded");
  kv.close();
});

Deno.test("NameIndex.warm() loads ahead of the first search and never throws", async () => {
  const kv = await openMemoryKv();
  await index(kv).record([ECTO]);
  const { log, lines } = captureLogs();
  const names = index(kv, { log });
  await names.warm();
  assert.equal(logRecords(lines, "name index loaded")[0]?.names, 1);
  kv.close();
  assert.equal(await firstId(names, "ecto"), ECTO.id, "the loaded copy answers");
  const cold = index(kv, { log });
  await cold.warm();
  assert.equal(logRecords(lines, "name index warm-up failed").length, 1);
});

Deno.test("NameIndex reads values that do not fit its layout as empty, not as a crash", async () => {
  using kv = await openMemoryKv();
  const root = ["names", "v2", NAMESPACE];
  await kv.set([...root, "manifest", "en"], { not: "a manifest" });
  await kv.set([...root, "bucket", "en", 0], ["19721", 5, null, "x", "odd"]);
  await kv.set([...root, "catalogue"], "yes");
  assert.deepEqual(await index(kv).status(), { names: 0, complete: false });
  await index(kv).record([ECTO]);
  assert.equal(await firstId(index(kv), "ecto"), ECTO.id, "a write repairs the layout");
});

Deno.test("seedSyntheticNames() fills an index the way the catalogue crawl will (for the benchmark)", async () => {
  using kv = await openMemoryKv();
  await seedSyntheticNames(kv, NAMESPACE, 1_000);
  const names = index(kv);
  assert.equal((await names.status()).names, 1_000);
  assert.equal(await firstId(names, "glob of ecto"), ECTO.id);
});

/**
 * A pacer that pauses at every chance (every slice is due), counting its pauses; the pause
 * numbered `hold` waits until the test calls `release()` (`held` resolves when it is reached).
 */
function holdingPacer(
  hold = Infinity,
): Pacer & { pauses: number; hold: number; held: Promise<void>; release(): void } {
  const gate = Promise.withResolvers<void>();
  const reached = Promise.withResolvers<void>();
  const pacer = {
    pauses: 0,
    hold,
    held: reached.promise,
    release: () => gate.resolve(),
    now: () => 0,
    due: () => true,
    pause: () => {
      pacer.pauses++;
      if (pacer.pauses !== pacer.hold) return Promise.resolve();
      reached.resolve();
      return gate.promise;
    },
  };
  return pacer;
}

Deno.test("NameIndex loads in slices; a search meanwhile answers from what is loaded, not complete", async () => {
  using kv = await openMemoryKv();
  await seedSyntheticNames(kv, NAMESPACE, 2_000, 1, ["en", "de"]);
  await index(kv).markCatalogueComplete(Date.UTC(2026, 10, 28));
  // Held in the middle of the German names: English is in, German not yet.
  const counted = holdingPacer();
  await index(kv, { pacer: counted }).warm();
  const pacer = holdingPacer(Math.round(counted.pauses * 0.75));
  const { log, lines } = captureLogs();
  const names = index(kv, { pacer, log, loadWaitMs: 0 });
  const warming = names.warm();
  await pacer.held;
  const during = await names.search("Glob of Ectoplasm", 5);
  assert.equal(during.matches[0]?.id, ECTO.id, "English is loaded");
  assert.deepEqual(
    [during.status.names, during.status.complete],
    [2_000, false],
    "a miss may be a name not loaded yet: not complete",
  );
  assert.deepEqual((await names.search("Ektoplasmabatzen", 5)).matches, [], "German is not");
  pacer.release();
  await warming;
  assert.ok(counted.pauses > 20, `${counted.pauses} pauses: the load gives way, bucket by bucket`);
  const after = await names.search("Ektoplasmabatzen", 5);
  assert.deepEqual([after.matches[0]?.id, after.status.complete], [ECTO.id, true]);
  assert.equal(logRecords(lines, "name index loaded")[0]?.de, 2_000);
});

Deno.test("NameIndex packs a crawl's changes in slices: searches meanwhile see the changes", async () => {
  using kv = await openMemoryKv();
  await seedSyntheticNames(kv, NAMESPACE, 2_000);
  const pacer = holdingPacer();
  const names = index(kv, { pacer });
  await names.warm();
  pacer.hold = pacer.pauses + 1; // the pack's first pause
  const renamed = syntheticNameEntries(1_000).map((entry) => ({
    ...entry,
    name: `${entry.name} Neu`,
  }));
  const writing = names.putMany(renamed);
  await pacer.held;
  assert.ok(names.pending >= 1_000, "the changes wait beside the packed names while it packs");
  assert.equal(await firstId(names, `${renamed[10]!.name}`), renamed[10]!.id);
  pacer.release();
  assert.equal(await writing, 1_000, "the write resolves once packed");
  assert.equal(names.pending, 0);
  assert.equal(await firstId(names, `${renamed[10]!.name}`), renamed[10]!.id);
});
