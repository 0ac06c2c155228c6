import assert from "node:assert/strict";
import { backgroundClientOptions, CRON_JOBS } from "../../src/background/jobs.ts";
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
  assert.equal(new Set(Object.values(CRON_JOBS).map((spec) => spec.name)).size, 3);
});

Deno.test("backgroundClientOptions(): half the burst in reserve, one attempt per request, no process memory", () => {
  const options = backgroundClientOptions(300);
  assert.equal(options.background.reserveTokens, 150);
  assert.equal(options.maxRetries, 0);
  assert.equal(options.memoryRecords, 0, "the interactive client's memory is the process's one");
  assert.ok(options.background.refreshAheadMs > 60 * 60_000, "more than the hourly period");
});

Deno.test("the cron handlers, called directly: warm, prices, catalogue", async () => {
  await using app = await startBackgroundApp();
  await app.jobs.prices();
  assert.deepEqual(app.sent.background, [], "no warm set yet: nothing to price");
  await app.jobs.warm();
  const warmed = Number(logRecords(app.logs, "warm-up done")[0]?.ids);
  assert.equal(
    to(app.sent.background, "/v2/items").length,
    Math.ceil(WARM_ROOTS.length / 200) + Math.ceil((warmed - WARM_ROOTS.length) / 200),
  );
  await app.jobs.prices();
  assert.equal(to(app.sent.background, "/v2/commerce/prices").length, 6);
  await app.jobs.catalogue();
  assert.ok(to(app.sent.background, "/v2/recipes").length > 0, "a slice of the crawl");
  assert.equal(logRecords(app.logs, "warm-up done").length, 1);
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
  const stopped = await settleOnClock(Promise.all([app.jobs.stop(5_000), slice]), app.clock);
  assert.ok(stopped.ok);
  assert.equal(stopped.elapsedMs, 0, "neither the 10 s attempt timer nor the 5 s grace waited for");
});
