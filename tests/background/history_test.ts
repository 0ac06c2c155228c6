/**
 * The price history's jobs on an injected clock and an in-memory KV: snapshots at the schedule,
 * one instance per snapshot, a snapshot cut short, roll-ups at each boundary, retention, and a
 * restart keeping the history.
 */
import assert from "node:assert/strict";
import { historyUpkeep, recordSnapshot } from "../../src/background/history.ts";
import { type Bar, SHARD_SPAN, ticksOfSheet } from "../../src/history/codec.ts";
import { DAY_MS, HOUR_MS, maxGapMs, rollTicks } from "../../src/history/rollup.ts";
import { HistoryStore } from "../../src/history/store.ts";
import type { Point } from "../../src/history/series.ts";
import { foldHour } from "../../src/history/volumes.ts";
import { startBackgroundApp } from "../support/background.ts";
import { ManualClock } from "../support/clock.ts";
import { createFakeGw2 } from "../fake_gw2/mod.ts";
import {
  HISTORY_NAMESPACE,
  historyDeps,
  historyReader,
  MovingMarket,
  movingSheet,
  simulate,
  worldPriceIds,
} from "../support/history.ts";
import { interceptedCommits, openMemoryKv, tempKvFile } from "../support/kv.ts";

const MIN = 60_000;
/** 600 ids over three raw shards and more: enough to cross shard edges, quick to write. */
const IDS = worldPriceIds(600);

/** Every key under the history's root, as strings, for before/after comparisons. */
async function historyKeys(kv: Deno.Kv): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of kv.list({ prefix: ["history"] })) {
    keys.push(JSON.stringify(entry.key));
  }
  return keys;
}

Deno.test("the market sheet job's sheets are the snapshots: the first at startup, then one every PRIORY_SNAPSHOT_MINUTES", async () => {
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now(), market: new MovingMarket() });
  await using app = await startBackgroundApp({ clock, fake, sheet: true, snapshotMinutes: 7 });
  const boot = clock.now();
  await app.jobs.startup();
  const first = await app.historyStore.latest("raw");
  assert.ok(first !== undefined && first - boot < MIN, "a fresh server's first snapshot at boot");
  for (let minute = 1; minute <= 30; minute++) {
    clock.advance(MIN - (clock.now() % MIN));
    await app.jobs.sheet();
  }
  const taken = await app.historyStore.periods("raw", 0, Infinity);
  assert.deepEqual(taken.map((t) => Math.round((t - boot) / MIN)), [0, 7, 14, 21, 28]);
  const [latest] = taken.slice(-1);
  const stored = await app.historyStore.snapshot(latest ?? 0);
  assert.deepEqual(
    stored,
    ticksOfSheet(app.sheets?.latest() ?? movingSheet(new MovingMarket(), [], 0)),
  );
  assert.equal(stored.length, app.fake.world.prices.size, "every tradeable item");
  const requests = app.sent.background.filter((r) => r.path === "/v2/commerce/prices").length;
  assert.equal(
    requests,
    5 * Math.ceil(app.fake.world.prices.size / 200),
    "the sheet's pages, nothing more",
  );
});

Deno.test("snapshots at the schedule: the first on the first tick, then one a period, for periods dividing the hour or not (simulated sheets)", async () => {
  for (const period of [5, 7, 1, 60]) {
    using kv = await openMemoryKv();
    const clock = new ManualClock();
    const deps = historyDeps({ kv, clock, snapshotMinutes: period });
    const start = clock.now();
    const run = await simulate(deps, new MovingMarket(), IDS.slice(0, 50), 3 * 60, {
      upkeepEvery: 60,
    });
    const minutes = run.snapshots.map((t) => (t - start) / MIN);
    const expected = Array.from(
      { length: Math.floor((180 - 1) / period) + 1 },
      (_, i) => 1 + i * period,
    );
    assert.deepEqual(minutes, expected, `every ${period} min from the first minute`);
  }
});

Deno.test("a snapshot records every item's prices and quantities exactly, sharded under KV's limits", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const deps = historyDeps({ kv, clock });
  const sheet = movingSheet(new MovingMarket(), IDS, clock.now());
  const report = await recordSnapshot(deps, sheet);
  assert.ok(report.ran);
  assert.equal(report.ids, IDS.length);
  const stored = await deps.history.snapshot(clock.now());
  assert.deepEqual(stored.sort((a, b) => a.id - b.id), ticksOfSheet(sheet));
  const shards = new Set(IDS.map((id) => Math.floor(id / SHARD_SPAN.raw)));
  assert.equal(report.shards, shards.size);
  for await (const entry of kv.list<Uint8Array>({ prefix: ["history"] })) {
    if (entry.value instanceof Uint8Array) assert.ok(entry.value.byteLength < 65_536);
  }
  const since = await deps.history.seen(IDS.slice(0, 3));
  assert.deepEqual([...since.values()], [clock.now(), clock.now(), clock.now()]);
});

Deno.test("two instances take one snapshot between them: at the same tick, and a second sheet just after", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const market = new MovingMarket();
  const a = historyDeps({ kv, clock, owner: "a" });
  const b = historyDeps({ kv, clock, owner: "b" });
  const reports = await Promise.all([
    recordSnapshot(a, movingSheet(market, IDS, clock.now())),
    recordSnapshot(b, movingSheet(market, IDS, clock.now())),
  ]);
  assert.equal(reports.filter((report) => report.ran).length, 1, JSON.stringify(reports));
  clock.advance(20_000);
  const late = await recordSnapshot(b, movingSheet(market, IDS, clock.now()));
  assert.deepEqual(late, { ran: false, reason: "recent" });
  assert.equal((await a.history.periods("raw", 0, Infinity)).length, 1);
});

/** `kv` whose `nth` atomic commit waits for `release()`: an instance paused mid-snapshot. */
function pausingKv(
  kv: Deno.Kv,
  nth: number,
): { kv: Deno.Kv; release: () => void; paused: Promise<void> } {
  let release = () => {};
  let reached = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const paused = new Promise<void>((resolve) => reached = resolve);
  const wrapped = interceptedCommits(kv, async (n) => {
    if (n !== nth) return;
    reached();
    await gate;
  });
  return { kv: wrapped, release, paused };
}

Deno.test("two instances racing: one paused after it checked for a recent snapshot, the other's sheet a second later is refused by the lease", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const market = new MovingMarket();
  // A's second commit (after the lease) is its claim: it has already found no recent snapshot.
  const paused = pausingKv(kv, 2);
  const a = historyDeps({ kv: paused.kv, clock, owner: "a" });
  const b = historyDeps({ kv, clock, owner: "b" });
  const first = recordSnapshot(a, movingSheet(market, IDS, clock.now()));
  await paused.paused;
  const second = await recordSnapshot(b, movingSheet(market, IDS, clock.now() + 1_000));
  paused.release();
  assert.deepEqual(second, { ran: false, reason: "leased" });
  assert.equal((await first).ran, true);
  assert.equal((await b.history.periods("raw", 0, Infinity)).length, 1);
});

/** `kv` whose `limit`-th and later atomic commits throw, as a process killed mid-write. */
function crashingKv(kv: Deno.Kv, limit: number): Deno.Kv {
  return interceptedCommits(kv, (n) => {
    if (n >= limit) throw new Error("killed");
  });
}

Deno.test("a snapshot cut short is absent: readers never see it, the next one is whole, retention removes what it left", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock();
  const market = new MovingMarket();
  // Lease, claim, first shard batch: the process dies before the second batch.
  const everyId = worldPriceIds();
  const crashing = historyDeps({ kv: crashingKv(kv, 4), clock, owner: "a" });
  await assert.rejects(
    recordSnapshot(crashing, movingSheet(market, everyId, clock.now())),
    /killed/,
  );
  const deps = historyDeps({ kv, clock, owner: "b" });
  const reader = historyReader(deps);
  assert.equal(await deps.history.latest("raw"), undefined);
  assert.deepEqual(await deps.history.periods("raw", 0, Infinity), []);
  const read = await reader.read(everyId.slice(0, 5), "24h");
  assert.deepEqual(read.items, [], "no point from the cut snapshot");
  const cut = (await historyKeys(kv)).filter((key) => key.includes('"data"'));
  assert.ok(cut.length > 0, "it did write some shards");

  clock.advance(61_000); // its lease has expired
  const next = await recordSnapshot(deps, movingSheet(market, everyId, clock.now()));
  assert.ok(next.ran);
  assert.equal((await deps.history.snapshot(clock.now())).length, everyId.length);

  clock.advance(48 * HOUR_MS);
  await historyUpkeep(deps);
  const left = await historyKeys(kv);
  for (const key of cut) assert.ok(!left.includes(key), `${key} deleted with its period`);
});

Deno.test("roll-ups at each boundary: an hour once it has ended, a day once its hours are in, equal to the snapshots they summarise", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 22, 30) });
  const deps = historyDeps({ kv, clock });
  const ids = IDS.slice(0, 80);
  const market = new MovingMarket();
  const hour = Date.UTC(2026, 10, 29, 23);
  const day = Date.UTC(2026, 10, 29);
  // 22:31 … 23:59: the 22:00 hour (partial) ends at 23:00.
  await simulate(deps, market, ids, 89);
  assert.deepEqual(await deps.history.periods("hourly", 0, Infinity), [hour - HOUR_MS]);
  assert.equal((await deps.history.rollupState()).hourlyUntil, hour);
  // 00:00: the hour has ended, but its last snapshot could still be arriving: not yet.
  await simulate(deps, market, ids, 1);
  assert.deepEqual(await deps.history.periods("hourly", 0, Infinity), [hour - HOUR_MS]);
  // 00:01: the first snapshot after the hour's end: the 23:00 hour, and with it the day.
  await simulate(deps, market, ids, 1);
  assert.deepEqual(await deps.history.periods("hourly", 0, Infinity), [hour - HOUR_MS, hour]);
  assert.deepEqual(await deps.history.periods("daily", 0, Infinity), [day]);

  // The 23:00 bars are exactly the roll-up of its snapshots (with the one before, 22:56).
  const raw = await deps.history.periods("raw", hour - maxGapMs(5), hour + HOUR_MS);
  const snapshots = await Promise.all(
    raw.map(async (t) => ({ t, ticks: await deps.history.snapshot(t) })),
  );
  const expected = rollTicks(snapshots, hour, hour + HOUR_MS, maxGapMs(5));
  const bars = (await deps.history.bars("hourly", hour)).sort((a, b) => a.id - b.id);
  assert.deepEqual(bars, expected);
  assert.ok(bars.some((bar) => bar.sold > 0), "the moving market traded");
  assert.ok(bars.every((bar) => bar.covered === 60), "an hour of 5-minute snapshots measured");
  // The day's bars join its two hours.
  const daily = new Map((await deps.history.bars("daily", day)).map((bar) => [bar.id, bar]));
  const early = new Map((await deps.history.bars("hourly", hour - HOUR_MS)).map((b) => [b.id, b]));
  for (const bar of bars) {
    const first = early.get(bar.id) as Bar;
    assert.equal(daily.get(bar.id)?.sold, first.sold + bar.sold);
    assert.equal(daily.get(bar.id)?.sellOpen, first.sellOpen);
    assert.equal(daily.get(bar.id)?.sellClose, bar.sellClose);
  }
  // The running volumes have both hours in.
  const volumes = await deps.history.volumes();
  assert.equal(volumes?.head.until, hour + HOUR_MS);
});

Deno.test("retention deletes what aged out and nothing else: snapshots after 48 h, hours after 30 days, days after a year", async () => {
  using kv = await openMemoryKv();
  const now = Date.UTC(2026, 10, 29, 12);
  const clock = new ManualClock({ start: now });
  const deps = historyDeps({ kv, clock });
  const store = deps.history;
  const ticks = ticksOfSheet(movingSheet(new MovingMarket(), IDS.slice(0, 30), now));
  const bars = rollTicks([{ t: now, ticks }], now - HOUR_MS, now + HOUR_MS, 1);
  const rawAges = [49 * HOUR_MS, 48 * HOUR_MS + 1, 48 * HOUR_MS, 47 * HOUR_MS, 5 * MIN];
  for (const age of rawAges) await store.writeSnapshot(now - age, ticks);
  const hourAges = [31 * DAY_MS, 30 * DAY_MS + HOUR_MS, 30 * DAY_MS, 29 * DAY_MS, HOUR_MS];
  for (const age of hourAges) await store.writeBars("hourly", now - age, bars);
  const dayAges = [400 * DAY_MS, 366 * DAY_MS, 365 * DAY_MS, 364 * DAY_MS, DAY_MS];
  for (const age of dayAges) await store.writeBars("daily", now - age, bars);
  await store.setRollupState({ hourlyUntil: now, dailyUntil: now });
  // Another upstream's history, in the same KV, is not this one's to delete.
  const other = new HistoryStore({ kv, namespace: "http://other.test", clock });
  await other.writeSnapshot(now - 100 * DAY_MS, ticks);
  const otherBefore = (await historyKeys(kv)).filter((key) => key.includes("other.test"));

  const report = await historyUpkeep(deps);
  assert.ok(report.ran);
  assert.deepEqual(report.deleted, { raw: 2, hourly: 2, daily: 2 });
  const ages = async (tier: "raw" | "hourly" | "daily") =>
    (await store.periods(tier, 0, Infinity)).map((t) => now - t);
  assert.deepEqual(await ages("raw"), rawAges.slice(2));
  assert.deepEqual(await ages("hourly"), hourAges.slice(2));
  assert.deepEqual(await ages("daily"), dayAges.slice(2));
  const left = await historyKeys(kv);
  for (const age of rawAges.slice(0, 2)) {
    assert.ok(!left.some((key) => key.includes('"raw"') && key.endsWith(`,${now - age}]`)));
  }
  assert.deepEqual(left.filter((key) => key.includes("other.test")), otherBefore);
  assert.ok(left.some((key) => key.includes('"seen"')), "first-seen times are kept");
  assert.equal(await store.origin(), now - 49 * HOUR_MS, "the origin is kept");
});

Deno.test("a restart keeps the history: a new process on the same KV file reads it and carries on rolling up", async () => {
  await using file = await tempKvFile();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 9, 30) });
  const market = new MovingMarket();
  const ids = IDS.slice(0, 40);
  let before: unknown;
  {
    using kv = await Deno.openKv(file.path);
    const deps = historyDeps({ kv, clock, owner: "first-process" });
    await simulate(deps, market, ids, 60);
    before = (await historyReader(deps).read(ids.slice(0, 3), "24h")).items;
  }
  using kv = await Deno.openKv(file.path);
  const deps = historyDeps({ kv, clock, owner: "second-process" });
  const reader = historyReader(deps);
  assert.deepEqual((await reader.read(ids.slice(0, 3), "24h")).items, before);
  assert.deepEqual(await deps.history.periods("hourly", 0, Infinity), [Date.UTC(2026, 10, 29, 9)]);
  // 10:30 → 11:05: the 10:00 hour is rolled once, not the 09:00 one again.
  await simulate(deps, market, ids, 35);
  assert.deepEqual(await deps.history.periods("hourly", 0, Infinity), [
    Date.UTC(2026, 10, 29, 9),
    Date.UTC(2026, 10, 29, 10),
  ]);
  assert.equal(await deps.history.origin(), Date.UTC(2026, 10, 29, 9, 31));
  assert.equal(HISTORY_NAMESPACE, "http://gw2.test");
});

Deno.test("a snapshot cut at any commit is whole or absent: its points, first-seen times and the origin all or none; its hour is rolled when it is whole", async () => {
  const first = Date.UTC(2026, 10, 29, 9, 58);
  const everyId = worldPriceIds();
  const market = new MovingMarket();
  for (let cut = 1;; cut++) {
    using kv = await openMemoryKv();
    const clock = new ManualClock({ start: first });
    const crashing = historyDeps({ kv: crashingKv(kv, cut), clock, owner: "a" });
    const outcome = await recordSnapshot(crashing, movingSheet(market, everyId, first)).then(
      (report) => report.ran,
      () => false,
    );
    const deps = historyDeps({ kv, clock, owner: "b" });
    const whole = (await deps.history.latest("raw")) === first;
    const seen = await deps.history.seen(everyId);
    const origin = await deps.history.origin();
    if (whole) {
      assert.equal(seen.size, everyId.length, `cut at ${cut}: every first-seen time`);
      assert.ok([...seen.values()].every((t) => t === first), `cut at ${cut}`);
      assert.equal(origin, first, `cut at ${cut}: the origin`);
    } else {
      assert.equal(seen.size, 0, `cut at ${cut}: no first-seen time of an absent snapshot`);
      assert.equal(origin, undefined, `cut at ${cut}: no origin`);
    }
    // The next snapshots (the next hour), then the upkeep: the first one's hour is rolled iff whole.
    clock.advance(5 * MIN);
    for (let i = 0; i < 14; i++) {
      assert.ok((await recordSnapshot(deps, movingSheet(market, everyId, clock.now()))).ran);
      clock.advance(5 * MIN);
    }
    await historyUpkeep(deps);
    const hours = await deps.history.periods("hourly", 0, Infinity);
    assert.equal(hours.includes(Date.UTC(2026, 10, 29, 9)), whole, `cut at ${cut}: ${hours}`);
    const since = await deps.history.seen(everyId.slice(0, 1));
    assert.equal(since.get(everyId[0] ?? 0), whole ? first : first + 5 * MIN, `cut at ${cut}`);
    if (outcome) break;
  }
});

Deno.test("an upkeep run cut between two hours loses nothing from the running volumes and counts nothing twice: the next run folds each hour once", async () => {
  for (const cut of ["before its first progress", "after its first progress"]) {
    using kv = await openMemoryKv();
    const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 9) });
    const deps = historyDeps({ kv, clock });
    const ids = IDS.slice(0, 60);
    // 09:01 … 11:01 of snapshots, no upkeep yet: the 09:00 and 10:00 hours are both due.
    await simulate(deps, new MovingMarket(), ids, 121, { upkeepEvery: 1_000 });
    const store = deps.history;
    const rollState = store.setRollupState.bind(store);
    store.setRollupState = async (state) => {
      if (cut.startsWith("after")) await rollState(state);
      throw new Error("killed");
    };
    await assert.rejects(historyUpkeep(deps), /killed/);
    store.setRollupState = rollState;
    await historyUpkeep(deps);
    const hours = [Date.UTC(2026, 10, 29, 9), Date.UTC(2026, 10, 29, 10)];
    assert.deepEqual(await store.periods("hourly", 0, Infinity), hours);
    let expected = new Map<number, ReturnType<typeof foldHour>[number]>();
    for (const hour of hours) {
      const folded = foldHour(expected, await store.bars("hourly", hour), 1);
      expected = new Map(folded.map((volume) => [volume.id, volume]));
    }
    const volumes = await store.volumes();
    assert.equal(volumes?.head.until, Date.UTC(2026, 10, 29, 11));
    const round = (v: { sold: number; bought: number; covered: number }) =>
      [v.sold, v.bought, v.covered].map((x) => Math.round(x * 100) / 100);
    for (const [id, volume] of expected) {
      const stored = volumes?.volumes.get(id);
      assert.ok(stored, `${cut}: ${id} has a volume`);
      assert.deepEqual(round(stored), round(volume), `${cut}: ${id}: both hours, once each`);
    }
  }
});

Deno.test("a period written again after a cut keeps nothing of the first attempt: a shard it no longer has is gone", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 10) });
  const hour = Date.UTC(2026, 10, 29, 9);
  const at = clock.now();
  const ticks = ticksOfSheet(movingSheet(new MovingMarket(), IDS, at));
  const bars = rollTicks([{ t: at, ticks }], at, at + 1, 1);
  const [low, high] = [bars.filter((bar) => bar.id < 256), bars.filter((bar) => bar.id >= 256)];
  assert.ok(low.length > 0 && high.length > 0);
  // Claim and shards, then killed before publishing.
  const cut = new HistoryStore({ kv: crashingKv(kv, 3), namespace: HISTORY_NAMESPACE, clock });
  await assert.rejects(cut.writeBars("hourly", hour, bars), /killed/);
  const store = new HistoryStore({ kv, namespace: HISTORY_NAMESPACE, clock });
  await store.writeBars("hourly", hour, high);
  assert.deepEqual(await store.periods("hourly", 0, Infinity), [hour]);
  assert.deepEqual((await store.bars("hourly", hour)).map((bar) => bar.id), high.map((b) => b.id));
  for (const shard of new Set(low.map((bar) => Math.floor(bar.id / SHARD_SPAN.hourly)))) {
    assert.deepEqual(await store.shardBars("hourly", shard, [hour]), [], `shard ${shard}`);
  }
});

Deno.test("a server down across an hour's end, then a late snapshot: the outage counts neither change nor minutes, the late one is in its hour, and every tier agrees", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 8, 58) });
  const deps = historyDeps({ kv, clock });
  const market = new MovingMarket();
  const ids = IDS.slice(0, 40);
  const store = deps.history;
  const h = (hour: number, minute = 0, second = 0) => Date.UTC(2026, 10, 29, hour, minute, second);
  await simulate(deps, market, ids, 57); // snapshots 08:59 … 09:54, then down
  clock.advance(h(10, 20) - clock.now() - MIN);
  await simulate(deps, market, ids, 40); // 10:20 … 10:55, ends at 10:59
  // A sheet taken at 10:59:50 is written at 11:00:40, after the upkeep at 11:00 waited for it.
  clock.advance(50_000);
  const late = movingSheet(market, ids, clock.now());
  clock.advance(10_000);
  await historyUpkeep(deps);
  assert.equal((await store.rollupState()).hourlyUntil, h(10), "10:00 waits: a snapshot may come");
  clock.advance(40_000);
  assert.ok((await recordSnapshot(deps, late)).ran);
  await simulate(deps, market, ids, 10); // 11:01 … 11:10: the 11:05 snapshot settles the hour
  assert.equal((await store.rollupState()).hourlyUntil, h(11));
  const covered = async (hour: number) =>
    new Set((await store.bars("hourly", hour)).map((bar) => bar.covered));
  assert.deepEqual(await covered(h(8)), new Set([0]), "08:59: nothing to measure from");
  assert.deepEqual(await covered(h(9)), new Set([55]), "08:59 → 09:54");
  assert.deepEqual(await covered(h(10)), new Set([40]), "10:20 → 10:59:50, not 09:54 → 10:20");
  // The 24h window reads the snapshots, the 7d window the hours: the same sales and minutes.
  const reader = historyReader(deps);
  const [day, week] = [await reader.read(ids, "24h"), await reader.read(ids, "7d")];
  const sold = (points: readonly Point[]) => points.reduce((sum, p) => sum + p[3], 0);
  for (const [index, item] of day.items.entries()) {
    const other = week.items[index];
    assert.ok(other);
    assert.equal(item.summary.coveredMinutes, other.summary.coveredMinutes, `${item.id}`);
    // Bars keep whole minutes: the late snapshot's 10 s are rounded into the hour's.
    const [a, b] = [item.summary.soldPerDay ?? 0, other.summary.soldPerDay ?? 0];
    assert.ok(Math.abs(a - b) <= 0.01 * a, `${item.id}: ${a} ~ ${b}`);
    assert.equal(sold(item.points), sold(other.points), `${item.id}: units sold`);
  }
});

Deno.test("PRIORY_SNAPSHOT_MINUTES not dividing the hour (7, 45): each interval counts once, in the hour it ends in", async () => {
  for (const period of [7, 45]) {
    using kv = await openMemoryKv();
    const clock = new ManualClock({ start: Date.UTC(2026, 10, 29, 0) });
    const deps = historyDeps({ kv, clock, snapshotMinutes: period });
    const run = await simulate(deps, new MovingMarket(), IDS.slice(0, 20), 5 * 60 + 15);
    const hours = await deps.history.periods("hourly", 0, Infinity);
    assert.equal(hours.length, 5, `${period}: five hours rolled`);
    let measured = 0;
    for (const hour of hours) {
      const covered = new Set((await deps.history.bars("hourly", hour)).map((bar) => bar.covered));
      assert.equal(covered.size, 1, `${period}: every item measured alike`);
      measured += [...covered][0] ?? 0;
    }
    const last = run.snapshots.filter((t) => t < Date.UTC(2026, 10, 29, 5)).at(-1) ?? 0;
    assert.equal(measured, (last - (run.snapshots[0] ?? 0)) / MIN, `${period}: no gap, no overlap`);
  }
});
