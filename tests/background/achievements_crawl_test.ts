/**
 * The catalogue crawl's last phase (issue 30): every `/v2/achievements` page in each language,
 * after the items, at the crawl's pace, into a generation published once the last language is
 * in - which every instance's catalogue then loads with its five languages' names - replacing
 * the English one a call filled on demand.
 */
import assert from "node:assert/strict";
import { AchievementCatalogue } from "../../src/achievements/catalogue.ts";
import { AchievementStore } from "../../src/achievements/store.ts";
import {
  crawlCatalogue,
  type CrawlDeps,
  crawlIntervalMs,
  type CrawlReport,
} from "../../src/background/crawl.ts";
import { LANGUAGES } from "../../src/gw2/types.ts";
import { FILLER_ACHIEVEMENT_COUNT, PLANTED } from "../fake_gw2/world/achievements.ts";
import { type BackgroundApp, startBackgroundApp, to } from "../support/background.ts";

const ACHIEVEMENTS = 37 + FILLER_ACHIEVEMENT_COUNT;
const PAGES = Math.ceil(ACHIEVEMENTS / 200);

function deps(app: BackgroundApp, store: AchievementStore, onPublished: () => void): CrawlDeps {
  return {
    kv: app.kv,
    namespace: "http://gw2.test",
    owner: "instance-a",
    clock: app.clock,
    log: app.log,
    enabled: true,
    pages: app.backgroundGw2,
    names: app.names,
    recipes: app.recipeStore,
    ratePerSec: 5,
    achievements: { store, onPublished },
  };
}

async function crawlToEnd(app: BackgroundApp, crawl: CrawlDeps): Promise<CrawlReport[]> {
  const reports: CrawlReport[] = [];
  for (let tick = 0; tick < 60; tick++) {
    const report = await crawlCatalogue(crawl);
    reports.push(report);
    if (report.phase === "done") return reports;
    app.clock.advance(60_000 - (app.clock.now() % 60_000));
  }
  throw new Error("the crawl did not finish in 60 ticks");
}

Deno.test("the crawl reads every achievement page in every language after the items, and publishes them", async () => {
  await using app = await startBackgroundApp();
  const store = new AchievementStore({ kv: app.kv, namespace: "http://gw2.test" });
  let published = 0;
  const reports = await crawlToEnd(app, deps(app, store, () => published++));
  const sent = app.sent.background;
  const achievements = to(sent, "/v2/achievements");
  assert.deepEqual(
    achievements.map((request) => [request.query.get("lang"), Number(request.query.get("page"))]),
    LANGUAGES.flatMap((lang) => Array.from({ length: PAGES }, (_, page) => [lang, page])),
    "each language's pages in turn, English first",
  );
  const firstAchievement = sent.indexOf(achievements[0]!);
  assert.equal(
    sent.slice(firstAchievement).every((request) => request.path === "/v2/achievements"),
    true,
    "after the items",
  );
  for (let index = 1; index < sent.length; index++) {
    const gap = (sent[index]?.at ?? 0) - (sent[index - 1]?.at ?? 0);
    assert.ok(gap >= crawlIntervalMs(5), `gap ${gap} ms before request ${index}`);
  }
  assert.ok(reports.some((report) => report.phase === "achievements"));
  assert.equal(published, 1);
  const head = await store.head();
  assert.deepEqual([head?.count, head?.langs], [ACHIEVEMENTS, [...LANGUAGES]]);
  // Another instance loads it, names in five languages.
  const catalogue = new AchievementCatalogue({ store, clock: app.clock, log: app.log });
  const index = await catalogue.usable();
  assert.equal(index?.size, ACHIEVEMENTS);
  assert.deepEqual(index?.search("der kosmos", 1).map(({ id, lang }) => [id, lang]), [
    [PLANTED.halfDone, "de"],
  ]);
  assert.deepEqual(index?.byItem(72083), [PLANTED.halfDone]);
});

Deno.test("the crawl's generation replaces one filled on demand; older ones are pruned", async () => {
  await using app = await startBackgroundApp();
  const store = new AchievementStore({ kv: app.kv, namespace: "http://gw2.test" });
  const catalogue = new AchievementCatalogue({
    store,
    clock: app.clock,
    log: app.log,
    pages: (page, size) => app.interactiveGw2.achievementsPage(page, size),
  });
  const filled = await catalogue.fill();
  assert.deepEqual(filled?.languages, ["en"]);
  const fillHead = await store.head();
  await crawlToEnd(app, deps(app, store, () => catalogue.refresh()));
  const head = await store.head();
  assert.equal(head?.previous, fillHead?.generation);
  assert.deepEqual((await catalogue.usable())?.languages, [...LANGUAGES]);
  // A second pass a day later: the fill's generation goes, the first pass's stays as previous.
  app.clock.advance(24 * 60 * 60_000);
  await crawlToEnd(app, deps(app, store, () => catalogue.refresh()));
  const generations = new Set<unknown>();
  for await (
    const entry of app.kv.list({ prefix: ["achievements", "v1", "http://gw2.test", "pages"] })
  ) {
    generations.add(entry.key[4]);
  }
  const latest = await store.head();
  assert.deepEqual([...generations].sort(), [head?.generation, latest?.generation].sort());
});

Deno.test("a pass in its achievements phase ends when the catalogue is no longer wired", async () => {
  await using app = await startBackgroundApp();
  const store = new AchievementStore({ kv: app.kv, namespace: "http://gw2.test" });
  const wired = deps(app, store, () => {});
  let report: CrawlReport | undefined;
  for (let tick = 0; tick < 60 && report?.phase !== "achievements"; tick++) {
    report = await crawlCatalogue(wired, { sliceMs: 20_000 });
    app.clock.advance(60_000 - (app.clock.now() % 60_000));
  }
  assert.equal(report?.phase, "achievements");
  const { achievements: _gone, ...unwired } = wired;
  assert.equal((await crawlCatalogue(unwired)).phase, "done");
  assert.equal((await crawlCatalogue(unwired)).reason, "fresh", "and the pass is over");
});
