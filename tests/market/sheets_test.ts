/**
 * The market sheet of a process (`src/market/sheets.ts`) over the fake's Trading Post: the
 * on-demand read of a tool call (within its deadline, or how long until it can), a read in flight
 * joined and helped, a stale sheet served when a read fails or runs late, the sheet another
 * instance published, hooks after each publication, and price reads answered from it.
 */

import assert from "node:assert/strict";
import { type Deadline, startDeadline } from "../../src/async/deadline.ts";
import { Gw2UpstreamError } from "../../src/gw2/errors.ts";
import type { Price } from "../../src/gw2/schemas.ts";
import { silentLogger } from "../../src/log.ts";
import { type MarketSheet, sheetSize } from "../../src/market/sheet.ts";
import {
  MarketSheetPendingError,
  MarketSheets,
  SHEET_HEAD_CHECK_MS,
  SHEET_SERVE_SLACK_MS,
} from "../../src/market/sheets.ts";
import { SheetStore } from "../../src/market/sheet_store.ts";
import { DEFAULT_SHEET_PERIOD_MS } from "../../src/market/sheet.ts";
import type { PageRead } from "../../src/gw2/paging.ts";
import { createFakeGw2 } from "../fake_gw2/mod.ts";
import { ManualClock } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv } from "../support/kv.ts";

const PRICES = "/v2/commerce/prices";

async function setup(
  options: { latencyOnClock?: boolean; kv?: Deno.Kv; periodMs?: number } = {},
) {
  const kv = options.kv ?? await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({
    now: () => clock.now(),
    ...(options.latencyOnClock ? { sleep: (ms, signal) => clock.timer(ms, signal) } : {}),
  });
  const gw2 = clientOverFake(kv, clock, fake, { maxRetries: 0 });
  const hooked: { sheet: MarketSheet; previous: MarketSheet | undefined }[] = [];
  const sheets = new MarketSheets({
    store: new SheetStore({ kv, namespace: "http://gw2.fake" }),
    clock,
    log: silentLogger,
    pages: gw2,
    ...(options.periodMs === undefined ? {} : { periodMs: options.periodMs }),
    onSheet: [(sheet, previous) => void hooked.push({ sheet, previous })],
  });
  const pageCount = Math.ceil(fake.world.prices.size / 200);
  const priceRequests = () => fake.control.requests.filter((r) => r.path === PRICES).length;
  return {
    kv,
    clock,
    fake,
    gw2,
    sheets,
    hooked,
    pageCount,
    priceRequests,
    [Symbol.dispose]: () => {
      if (options.kv === undefined) kv.close();
    },
  };
}

/** Lets the event loop run `turns` times (requests in flight reach the fake's latency). */
async function turns(count = 20): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
}

function deadline(clock: ManualClock, ms = 14_000): Deadline & Disposable {
  return startDeadline(clock, ms);
}

Deno.test("forCall() on a fresh process reads every page once, publishes, and answers the next calls from memory", async () => {
  using env = await setup();
  const { clock, fake, sheets } = env;
  using bound = deadline(clock);
  const first = await sheets.forCall(bound);
  assert.equal(first.staleAgeMs, undefined);
  assert.equal(sheetSize(first.sheet), fake.world.prices.size);
  assert.equal(env.priceRequests(), env.pageCount, "each page once");
  assert.equal(env.hooked.length, 1);
  assert.equal(env.hooked[0]?.previous, undefined);
  clock.advance(DEFAULT_SHEET_PERIOD_MS - 1);
  const again = await sheets.forCall(bound);
  assert.equal(again.sheet, first.sheet);
  assert.equal(env.priceRequests(), env.pageCount, "fresh: no read");
  const stored = await new SheetStore({ kv: env.kv, namespace: "http://gw2.fake" }).head();
  assert.equal(stored?.count, fake.world.prices.size, "published for every instance");
});

Deno.test("past its period a call answers at once from the sheet while it still answers price reads, the job's tick refreshing it; no instance reads it again on demand", async () => {
  using env = await setup();
  const { clock, sheets } = env;
  using bound = deadline(clock, 600_000);
  const first = await sheets.forCall(bound);
  clock.advance(DEFAULT_SHEET_PERIOD_MS);
  const late = await sheets.forCall(bound);
  assert.equal(late.sheet, first.sheet);
  assert.equal(late.staleAgeMs, undefined, "as fresh as the prices every other tool quotes");
  clock.advance(SHEET_SERVE_SLACK_MS - 1);
  assert.equal((await sheets.forCall(bound)).sheet, first.sheet);
  assert.equal(env.priceRequests(), env.pageCount, "no read of its own");
});

Deno.test("a sheet past its period and the slack is read anew; hooks get the new sheet and the one it replaces", async () => {
  using env = await setup();
  const { clock, sheets } = env;
  using bound = deadline(clock, 600_000);
  const first = await sheets.forCall(bound);
  clock.advance(DEFAULT_SHEET_PERIOD_MS + SHEET_SERVE_SLACK_MS);
  const second = await sheets.forCall(bound);
  assert.notEqual(second.sheet, first.sheet);
  assert.equal(env.priceRequests(), 2 * env.pageCount);
  assert.equal(env.hooked.length, 2);
  assert.equal(env.hooked[1]?.sheet, second.sheet);
  assert.equal(env.hooked[1]?.previous, first.sheet);
});

Deno.test("prices() answers a price read from the sheet while it is fresh enough, ids off the Trading Post missing", async () => {
  using env = await setup();
  const { clock, fake, sheets } = env;
  assert.equal(sheets.prices([19721]), undefined, "no sheet yet");
  using bound = deadline(clock);
  await sheets.forCall(bound);
  const ecto = fake.world.prices.get(19721);
  const untradeable = [...fake.world.items.keys()].find((id) => !fake.world.prices.has(id)) ?? 0;
  const read = sheets.prices([19721, untradeable, 19721]);
  assert.deepEqual(read, { found: [ecto], missingIds: [untradeable] });
  clock.advance(DEFAULT_SHEET_PERIOD_MS + SHEET_SERVE_SLACK_MS - 1);
  assert.ok(sheets.prices([19721]) !== undefined, "within the period and a tick's slack");
  clock.advance(1);
  assert.equal(sheets.prices([19721]), undefined, "older: reads go upstream");
});

Deno.test("a long period never makes an old sheet a fresh price: price reads and calls see it fresh for 5 minutes at most", async () => {
  // PRIORY_SNAPSHOT_MINUTES=30: snapshots every 30 minutes, but a price is not 30 minutes fresh.
  using env = await setup({ periodMs: 30 * 60_000 });
  const { clock, sheets } = env;
  using bound = deadline(clock, 600_000);
  const first = await sheets.forCall(bound);
  clock.advance(DEFAULT_SHEET_PERIOD_MS + SHEET_SERVE_SLACK_MS - 1);
  assert.ok(sheets.prices([19721]) !== undefined, "as with the default period");
  clock.advance(1);
  assert.equal(sheets.prices([19721]), undefined, "7 minutes old: price reads go upstream");
  assert.equal(sheets.isFresh(), false, "the per-minute price job runs again");
  const second = await sheets.forCall(bound);
  assert.notEqual(second.sheet, first.sheet, "a call reads a new one");
  assert.equal(env.priceRequests(), 2 * env.pageCount);
});

Deno.test("the GW2 client answers prices from the sheet while it is fresh, without a request", async () => {
  using env = await setup();
  const { clock, fake, sheets } = env;
  using bound = deadline(clock);
  await sheets.forCall(bound);
  const client = clientOverFake(env.kv, clock, fake, { priceSheet: (ids) => sheets.prices(ids) });
  const before = fake.control.requests.length;
  const read = await client.prices([19721, 24295]);
  assert.deepEqual(read.found.map((price: Price) => price.id), [19721, 24295]);
  assert.equal(fake.control.requests.length, before);
  assert.equal(client.stats().cacheHits, 2);
});

Deno.test("a call whose deadline passes before the first read is done is told how long to wait; the read goes on", async () => {
  using env = await setup({ latencyOnClock: true });
  const { clock, fake, sheets } = env;
  fake.control.setLatency(1_000, PRICES);
  using short = deadline(clock, 500);
  const waiting = sheets.forCall(short);
  await turns();
  clock.advance(500);
  const error = await waiting.then(() => undefined, (reason: unknown) => reason);
  assert.ok(error instanceof MarketSheetPendingError);
  assert.ok(error.retryAfterMs > 0);
  assert.equal(error.pagesRead, 0);
  // The read continues on its own bound: the retry finds it done.
  for (let step = 0; step < 20 && sheets.latest() === undefined; step++) {
    clock.advance(1_000);
    await turns();
  }
  using later = deadline(clock);
  const answer = await sheets.forCall(later);
  assert.equal(sheetSize(answer.sheet), fake.world.prices.size);
  assert.equal(env.priceRequests(), env.pageCount, "one read, not one per call");
});

Deno.test("when the read fails or runs late, the last sheet is served with its age", async () => {
  using env = await setup({ latencyOnClock: true });
  const { clock, fake, sheets } = env;
  using bound = deadline(clock, 600_000);
  const first = await sheets.forCall(bound);
  const age = DEFAULT_SHEET_PERIOD_MS + SHEET_SERVE_SLACK_MS + 1_000;
  clock.advance(age);
  fake.control.injectFault("server_error", { endpoint: PRICES, times: 100 });
  const failed = await sheets.forCall(bound);
  assert.equal(failed.sheet, first.sheet);
  assert.equal(failed.staleAgeMs, age);
  fake.control.clearFaults();
  fake.control.setLatency(5_000, PRICES);
  using short = deadline(clock, 1_000);
  const late = sheets.forCall(short);
  await turns();
  clock.advance(1_000);
  assert.equal((await late).sheet, first.sheet, "the deadline passed: the last one");
});

Deno.test("a read that fails with no sheet to fall back on fails the call with its cause", async () => {
  using env = await setup();
  const { clock, fake, sheets } = env;
  fake.control.injectFault("server_error", { endpoint: PRICES, times: 100 });
  using bound = deadline(clock);
  await assert.rejects(() => sheets.forCall(bound), Gw2UpstreamError);
});

Deno.test("a sheet another instance published is loaded at the next head check, not read again", async () => {
  using env = await setup();
  const { clock, sheets } = env;
  using other = await setup({ kv: env.kv });
  using bound = deadline(clock);
  await sheets.forCall(bound);
  other.clock.advance(clock.now() - other.clock.now() + SHEET_HEAD_CHECK_MS);
  using otherBound = deadline(other.clock);
  const loaded = await other.sheets.forCall(otherBound);
  assert.equal(sheetSize(loaded.sheet), sheetSize(sheets.latest() ?? loaded.sheet));
  assert.equal(other.priceRequests(), 0);
  assert.equal(other.hooked.length, 0, "hooks run on the instance that took it");
});

Deno.test("a call joins the job's read in flight and reads the pages the waiting background client has not", async () => {
  using env = await setup();
  const { clock, gw2, sheets } = env;
  const held = Promise.withResolvers<void>();
  const backgroundPages: number[] = [];
  // The background client: page 0, then stuck waiting for its share of the budget.
  const background: PageRead<Price> = async (page, size, stop) => {
    backgroundPages.push(page);
    if (page > 0) {
      await Promise.race([
        held.promise,
        new Promise((resolve) => stop.addEventListener("abort", resolve)),
      ]);
      throw new Gw2UpstreamError("timeout");
    }
    return await gw2.pricesPage(page, size);
  };
  const job = sheets.refresh(background);
  for (let turn = 0; turn < 50 && backgroundPages.length < 9; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  using bound = deadline(clock);
  const called = sheets.forCall(bound);
  for (let turn = 0; turn < 200 && env.priceRequests() < env.pageCount - 7; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  // The pages the background client holds are read again once held for STEAL_AFTER_MS.
  clock.advance(2_000);
  const answer = await called;
  assert.equal(sheetSize(answer.sheet), env.fake.world.prices.size);
  assert.equal(await job, answer.sheet, "one read, one sheet");
  assert.equal(env.hooked.length, 1);
  held.resolve();
});
