import assert from "node:assert/strict";
import { LANGUAGES } from "../../src/gw2/types.ts";
import { backgroundClientOptions, CRON_JOBS } from "../../src/background/jobs.ts";
import { runtimeCollect } from "../../src/background/release.ts";
import { WARM_LEASE_MS, WARM_ROOTS } from "../../src/background/warm.ts";
import { createFakeGw2 } from "../fake_gw2/mod.ts";
import { startBackgroundApp, to } from "../support/background.ts";
import { ManualClock, settleOnClock } from "../support/clock.ts";
import { logRecords } from "../support/log.ts";

Deno.test("CRON_JOBS: names Deno accepts, explicit retry schedules within Deno's limits", () => {
  for (const spec of Object.values(CRON_JOBS)) {
    assert.ok(spec.name.length <= 64, spec.name);
    assert.match(spec.name, /^[A-Za-z0-9 _-]+$/);
    assert.match(spec.schedule, /^(\S+ ){4}\S+$/, "five fields, UTC");
    assert.ok(spec.backoffSchedule.length <= 5);
    assert.ok(spec.backoffSchedule.every((ms) => ms > 0 && ms <= 3_600_000));
  }
  assert.equal(new Set(Object.values(CRON_JOBS).map((spec) => spec.name)).size, 5);
});

Deno.test("backgroundClientOptions(): half the burst in reserve, one attempt per request, no process memory", () => {
  const options = backgroundClientOptions(300);
  assert.equal(options.background.reserveTokens, 150);
  assert.equal(options.maxRetries, 0);
  assert.equal(options.memoryRecords, 0, "the interactive client's memory is the process's one");
  assert.ok(options.background.refreshAheadMs > 60 * 60_000, "more than the hourly period");
});

Deno.test("the cron handlers, called directly: warm, prices, catalogue; one log line per run", async () => {
  await using app = await startBackgroundApp();
  await app.jobs.prices();
  assert.deepEqual(app.sent.background, [], "no warm set yet: nothing to price");
  await app.jobs.warm();
  const warmed = Number(
    logRecords(app.logs, "background job").find((run) => run.job === "warm")?.ids,
  );
  assert.equal(
    to(app.sent.background, "/v2/items").length,
    (Math.ceil(WARM_ROOTS.length / 200) + Math.ceil((warmed - WARM_ROOTS.length) / 200)) *
      LANGUAGES.length,
    "the items in English, their names in the other four languages",
  );
  await app.jobs.prices();
  assert.equal(to(app.sent.background, "/v2/commerce/prices").length, 6);
  const beforeCrawl = app.sent.background.length;
  await app.jobs.catalogue();
  const crawled = app.sent.background.slice(beforeCrawl);
  const paged = [...to(crawled, "/v2/recipes"), ...to(crawled, "/v2/items")]
    .filter((request) => request.query.has("page"));
  const pages = paged.length;
  assert.ok(pages > 0, "a slice of the crawl");
  const runs = logRecords(app.logs, "background job");
  assert.deepEqual(runs.map(({ level, job, outcome }) => [level, job, outcome]), [
    ["debug", "prices", "skipped"],
    ["info", "warm", "ran"],
    ["info", "prices", "ran"],
    ["info", "catalogue", "ran"],
  ]);
  const [skipped, warm, prices, catalogue] = runs;
  assert.equal(skipped?.reason, "no_warm_set");
  assert.equal(warm?.ids, 1_119, "the warm set of the fake");
  assert.equal(prices?.ids, 1_119);
  assert.equal(catalogue?.pages, pages);
  // The warm-up filled the recipe catalogue on demand, so the crawl's slice goes straight to items.
  assert.deepEqual(to(crawled, "/v2/recipes"), []);
  assert.equal(catalogue?.phase, "items");
  assert.ok(runs.every((run) => typeof run.ms === "number" && !("ran" in run)));
});

Deno.test("a failing warm-up is logged and rethrown (the cron's backoff retries it); the others are logged", async () => {
  await using app = await startBackgroundApp();
  app.fake.control.injectFault("server_error", { times: Infinity });
  await assert.rejects(() => app.jobs.warm());
  await app.jobs.catalogue();
  const failures = logRecords(app.logs, "background job failed").map((record) => record.job);
  assert.deepEqual(failures, ["warm"]);
  assert.equal(logRecords(app.logs, "catalogue crawl page failed").length, 1);
  await app.jobs.startup(); // never rejects
});

Deno.test("a full collection follows the warm-up and a crawl slice that ran, alone; not the prices job, nor the startup", async () => {
  let collections = 0;
  await using app = await startBackgroundApp({ collect: () => collections++ });
  await app.jobs.startup();
  assert.equal(collections, 0, "not at startup: the restart's event loop is busy enough");
  await app.jobs.prices();
  assert.equal(collections, 0, "skipped: nothing to collect after");
  await app.jobs.warm();
  assert.equal(collections, 1, "after the warm-up");
  await app.jobs.prices();
  assert.equal(collections, 1, "not after the minutely prices job");
  await app.jobs.catalogue();
  assert.equal(collections, 2, "after a crawl slice");
  // Two at once: one collection, when the last of them ends.
  await Promise.all([app.jobs.warm(), app.jobs.catalogue()]);
  assert.equal(collections, 3);
});

Deno.test("runtimeCollect(): a working full collection on Deno 2.9, none on 2.5 (Deno Deploy)", async () => {
  const collect = runtimeCollect();
  if (Deno.version.deno.startsWith("2.5.")) {
    assert.equal(collect, undefined);
    return;
  }
  assert.ok(collect, `Deno ${Deno.version.deno} lets the code collect`);
  const garbage = new WeakRef({ payload: new Array(1_000).fill("x") });
  // A WeakRef's target is kept until the current job ends.
  await new Promise((resolve) => setTimeout(resolve, 0));
  collect();
  assert.equal(garbage.deref(), undefined, "the garbage is collected");
});

Deno.test("stop() aborts the cron signal and the crawl between pages", async () => {
  await using app = await startBackgroundApp();
  const stopped = app.jobs.stop(0);
  assert.equal(app.jobs.signal.aborted, true);
  await stopped;
  await app.jobs.catalogue();
  assert.deepEqual(app.sent.background, [], "a stopped crawl reads nothing");
});

Deno.test("a warm-up's reads end with its lease: a slow upstream fails the run at WARM_LEASE_MS", async () => {
  const clock = new ManualClock({ advance: "delays" });
  // Every recipe search answers after 9 s (under the 10 s attempt timeout): a cold walk of 465
  // searches would take minutes.
  const fake = createFakeGw2({
    now: () => clock.now(),
    sleep: (ms, signal) => clock.timer(ms, signal),
  });
  fake.control.setLatency(9_000, "/v2/recipes/search");
  await using app = await startBackgroundApp({ clock, fake, catalogue: false });
  const run = await settleOnClock(app.jobs.warm(), clock, 1_000);
  assert.equal(run.ok, false, "the run failed (the cron's backoff retries it)");
  assert.equal(run.elapsedMs, WARM_LEASE_MS);
  assert.match(logRecords(app.logs, "background job failed")[0]?.error as string, /timeout/i);
});

Deno.test("stop() ends a running job at once: a crawl's page read in flight is cut", async () => {
  await using app = await startBackgroundApp();
  app.fake.control.injectFault("hang", { endpoint: "/v2/recipes" });
  const slice = app.jobs.catalogue();
  // Bounded: a crawl that never sends must fail this test, not hang the suite.
  for (let turn = 0; app.sent.background.length === 0; turn++) {
    assert.ok(turn < 2_000, "the crawl never sent its page read");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // Settled in steps of 10 ms of the clock while KV and the aborted fetch answer, the stop must
  // end before the clock reaches the 5 s grace or the 10 s attempt timer: an order, however many
  // steps a loaded machine makes it take (it would need 500 of them, each two idle turns).
  const stopped = await settleOnClock(Promise.all([app.jobs.stop(5_000), slice]), app.clock, 10);
  assert.ok(stopped.ok);
  assert.ok(stopped.elapsedMs < 5_000, `${stopped.elapsedMs} ms: the grace was waited for`);
  assert.equal(
    logRecords(app.logs, "background job").find((run) => run.job === "catalogue")?.pages,
    0,
    "the page in flight was cut, not read",
  );
});
