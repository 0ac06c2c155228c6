import assert from "node:assert/strict";
import { backgroundClientOptions, CRON_JOBS } from "../../src/background/jobs.ts";
import { logRecords } from "../support/log.ts";
import { startBackgroundApp, to } from "../support/background.ts";

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

Deno.test("backgroundClientOptions(): half the burst in reserve, one attempt per request", () => {
  const options = backgroundClientOptions(300);
  assert.equal(options.background.reserveTokens, 150);
  assert.equal(options.maxRetries, 0);
  assert.ok(options.background.refreshAheadMs > 60 * 60_000, "more than the hourly period");
});

Deno.test("the cron handlers, called directly: warm, prices, catalogue", async () => {
  await using app = await startBackgroundApp();
  await app.jobs.prices();
  assert.deepEqual(app.sent.background, [], "no warm set yet: nothing to price");
  await app.jobs.warm();
  assert.equal(to(app.sent.background, "/v2/items").length, 3);
  await app.jobs.prices();
  assert.equal(to(app.sent.background, "/v2/commerce/prices").length, 3);
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
