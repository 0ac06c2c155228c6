/**
 * The market sheet job (`src/background/sheet.ts`) in the process as `main.ts` wires it: the
 * whole Trading Post read on the background client when the published sheet is due, nothing while
 * it is fresh (here or published by another instance), one instance at a time, at startup too;
 * the per-minute price job reading nothing while the sheet is fresh, and price reads answered
 * from it.
 */

import assert from "node:assert/strict";
import { SHEET_DUE_SLACK_MS } from "../../src/background/sheet.ts";
import { acquireLease } from "../../src/background/lease.ts";
import { DEFAULT_SHEET_PERIOD_MS, sheetSize } from "../../src/market/sheet.ts";
import { logRecords } from "../support/log.ts";
import { startBackgroundApp, to } from "../support/background.ts";

const PRICES = "/v2/commerce/prices";

Deno.test("the sheet job reads every price page on the background client, then nothing until the sheet is due", async () => {
  await using app = await startBackgroundApp({ sheet: true });
  const pages = Math.ceil(app.fake.world.prices.size / 200);
  await app.jobs.sheet();
  assert.equal(to(app.sent.background, PRICES).length, pages);
  assert.equal(to(app.sent.interactive, PRICES).length, 0);
  assert.equal(
    sheetSize(app.sheets?.latest() ?? assert.fail("no sheet")),
    app.fake.world.prices.size,
  );
  app.clock.advance(DEFAULT_SHEET_PERIOD_MS - SHEET_DUE_SLACK_MS - 1);
  await app.jobs.sheet();
  assert.equal(to(app.sent.background, PRICES).length, pages, "fresh: skipped");
  app.clock.advance(1);
  await app.jobs.sheet();
  assert.equal(to(app.sent.background, PRICES).length, 2 * pages, "due: read again");
  const runs = logRecords(app.logs, "background job").filter((line) => line.job === "sheet");
  assert.deepEqual(runs.map((line) => line.outcome), ["ran", "skipped", "ran"]);
  assert.equal(runs[0]?.ids, app.fake.world.prices.size);
});

Deno.test("the sheet job skips while another instance holds its lease, and loads the sheet that instance published", async () => {
  await using first = await startBackgroundApp({ sheet: true, owner: "instance-a" });
  await using second = await startBackgroundApp({
    sheet: true,
    owner: "instance-b",
    kv: first.kv,
    fake: first.fake,
    clock: first.clock,
  });
  const lease = await acquireLease(
    first.kv,
    ["background", "v1", "http://gw2.test", "sheet-lease"],
    "instance-a",
    60_000,
    first.clock,
  );
  assert.ok(lease !== undefined);
  await second.jobs.sheet();
  assert.equal(to(second.sent.background, PRICES).length, 0, "leased elsewhere");
  await first.jobs.sheet();
  const pages = to(first.sent.background, PRICES).length;
  assert.ok(pages > 0);
  first.clock.advance(60_000);
  await second.jobs.sheet();
  assert.equal(to(second.sent.background, PRICES).length, 0, "published elsewhere: loaded");
  assert.equal(second.sheets?.latest()?.takenAt, first.sheets?.latest()?.takenAt);
});

Deno.test("startup takes the sheet beside the warm-up; the price job then reads nothing, and trees price from the sheet", async () => {
  await using app = await startBackgroundApp({ sheet: true });
  await app.jobs.startup();
  const pages = Math.ceil(app.fake.world.prices.size / 200);
  assert.equal(
    to(app.sent.background, PRICES).length,
    pages,
    "the sheet's pages, no warm-set read",
  );
  await app.jobs.prices();
  assert.equal(to(app.sent.background, PRICES).length, pages, "the price job skipped");
  const skipped = logRecords(app.logs, "background job").find((line) => line.job === "prices");
  assert.equal(skipped?.reason, "sheet_fresh");
  const read = await app.gw2.prices([19721, 24295]);
  assert.equal(read.found.length, 2);
  assert.equal(to(app.sent.interactive, PRICES).length, 0, "answered from the sheet");
});

Deno.test("without a sheet the price job reads the warm set's prices as before", async () => {
  await using app = await startBackgroundApp();
  await app.jobs.startup();
  await app.jobs.prices();
  assert.ok(to(app.sent.background, PRICES).length > 0);
  assert.ok(
    to(app.sent.background, PRICES).every((request) => request.query.has("ids")),
    "no page read: the sheet job is off",
  );
});
