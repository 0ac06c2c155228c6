/**
 * `priory_today` over the real stack (MCP client -> handler -> GW2 client on KV -> the fake) on an
 * injected clock: done and left per part for the planted account, a completion from before the
 * daily or the weekly reset reported not done with `stale: true` (each around its reset time,
 * the account's last play moved by the fake's control), the weekly reset on a Monday before and
 * after 07:30 UTC, a daily craft's profit as `priory_craft_profit` lists it, keys without
 * `progression` or `wallet` (named in `unread`, the rest answering), and the answer's size.
 */

import assert from "node:assert/strict";
import { MAIN_PROGRESS, MAIN_VAULT, TEST_KEYS } from "../fake_gw2/mod.ts";
import { connectClient, startTestApp, type TestApp, textOf } from "../support/app.ts";
import { ManualClock } from "../support/clock.ts";

type Tally = { done: number; of: number; left: string[]; more?: number };
type Period = {
  progress: number;
  of: number;
  claimed: boolean;
  objectives: { title: string; progress: number; of: number; claimed: boolean }[];
};
type Today = {
  resets: { daily: string; weekly: string };
  stale: boolean;
  stalePeriods?: string[];
  dailyCrafting?: {
    id: string;
    name: string;
    done: boolean;
    profit?: number;
    via?: { id: number; name: string };
  }[];
  worldBosses?: Tally;
  mapChests?: Tally;
  dungeons?: Tally;
  raids?: { cleared: number; of: number; wings: { id: string; cleared: number; left: string[] }[] };
  wizardsVault?: { daily: Period; weekly: Period; special: { done: number; of: number } };
  acclaim?: number;
  unread?: { part: string; scope: string }[];
};

/** A Sunday noon, the default test time: the last resets that day 00:00 and Monday 23rd 07:30. */
const SUNDAY_NOON = Date.parse("2026-11-29T12:00:00Z");
const PLAYED_THIS_MORNING = "2026-11-29T10:00:00Z";

async function app(options: { craft?: boolean; start?: number } = {}): Promise<TestApp> {
  const clock = new ManualClock({ start: options.start ?? SUNDAY_NOON, advance: "delays" });
  return await startTestApp({ clock, craft: options.craft ?? false });
}

/** Moves the app's clock forward to `iso`. */
function at(testApp: TestApp, iso: string): void {
  const ms = Date.parse(iso) - testApp.clock.now();
  assert.ok(ms >= 0, `the clock only moves forward (to ${iso})`);
  testApp.clock.advance(ms);
}

async function call(
  testApp: TestApp,
  key: string | null = TEST_KEYS.full,
  args: Record<string, unknown> = {},
): Promise<{ result: Today; text: string; isError: boolean }> {
  await using client = await connectClient(
    testApp.handler,
    key === null ? {} : { headers: { "X-GW2-Key": key } },
  );
  const answer = await client.callTool({ name: "priory_today", arguments: args });
  return {
    result: answer.structuredContent as Today,
    text: textOf(answer),
    isError: answer.isError === true,
  };
}

Deno.test("done and left per part for the planted account, names readable, the next resets", async () => {
  await using testApp = await app();
  testApp.fake.control.setLastModified(PLAYED_THIS_MORNING);
  const { result, isError } = await call(testApp);
  assert.equal(isError, false);
  assert.deepEqual(result.resets, {
    daily: "2026-11-30T00:00:00Z",
    weekly: "2026-11-30T07:30:00Z",
  });
  assert.equal(result.stale, false);
  assert.equal(result.stalePeriods, undefined);
  assert.deepEqual(
    result.dailyCrafting?.map((row) => [row.id, row.done]),
    [
      ["charged_quartz_crystal", false],
      ["glob_of_elder_spirit_residue", false],
      ["lump_of_mithrilium", true],
      ["spool_of_silk_weaving_thread", true],
      ["spool_of_thick_elonian_cord", false],
    ],
  );
  assert.equal(result.dailyCrafting?.[2]?.name, "Lump of Mithrillium", "the item's own name");
  assert.equal(result.worldBosses?.done, MAIN_PROGRESS.worldbosses.length);
  assert.equal(result.worldBosses?.of, 14);
  assert.equal(result.worldBosses?.left.length, 11);
  assert.ok(result.worldBosses?.left.includes("Inquest Golem Mark II"));
  assert.ok(!result.worldBosses?.left.includes("Tequatl the Sunless"), "done");
  assert.deepEqual(result.mapChests, {
    done: 2,
    of: 8,
    left: [
      "Crystal Oasis",
      "Domain of Vabbi",
      "Elon Riverlands",
      "Tangled Depths",
      "The Desolation",
      "Verdant Brink",
    ],
  });
  assert.equal(result.dungeons?.done, 2);
  assert.equal(result.dungeons?.of, 33);
  assert.equal(result.dungeons?.left.length, 15);
  assert.equal(result.dungeons?.more, 16, "what is left, bounded");
  assert.equal(result.dungeons?.left[0], "Ascalonian Catacombs: Detha");
  assert.equal(result.raids?.cleared, 5);
  assert.equal(result.raids?.of, 26);
  assert.deepEqual(result.raids?.wings.slice(0, 2), [
    { id: "spirit_vale", name: "Spirit Vale", cleared: 4, left: [] },
    { id: "salvation_pass", name: "Salvation Pass", cleared: 1, left: ["Bandit Trio", "Matthias"] },
  ]);
  const vault = result.wizardsVault;
  assert.equal(vault?.daily.progress, MAIN_VAULT.daily.meta_progress_current);
  assert.equal(vault?.daily.of, 4);
  assert.equal(vault?.daily.claimed, false);
  assert.deepEqual(vault?.daily.objectives[1], {
    title: "Gather Resources",
    track: "PvE",
    acclaim: 10,
    progress: 20,
    of: 20,
    claimed: false,
  });
  assert.equal(vault?.weekly.progress, 3);
  assert.equal(vault?.weekly.objectives.length, 7);
  assert.deepEqual(vault?.special, { done: 4, of: 8 });
  assert.equal(result.acclaim, 640);
  assert.equal(result.unread, undefined);
});

Deno.test("daily reset: a completion from before 00:00 UTC is not done after it, and stale says so", async () => {
  await using testApp = await app({ start: Date.parse("2026-12-01T23:52:00Z") });
  testApp.fake.control.setLastModified("2026-12-01T23:50:00Z");
  const before = (await call(testApp)).result;
  assert.equal(before.stale, false);
  assert.equal(before.worldBosses?.done, 3);
  assert.equal(before.resets.daily, "2026-12-02T00:00:00Z");
  at(testApp, "2026-12-02T00:05:00Z");
  const after = (await call(testApp)).result;
  assert.equal(after.stale, true);
  assert.deepEqual(after.stalePeriods, ["daily"]);
  assert.equal(after.resets.daily, "2026-12-03T00:00:00Z");
  assert.ok(after.dailyCrafting?.every((row) => !row.done), "no craft done today");
  assert.deepEqual([after.worldBosses?.done, after.mapChests?.done, after.dungeons?.done], [
    0,
    0,
    0,
  ]);
  assert.equal(after.worldBosses?.left.length, 14);
  assert.deepEqual(after.wizardsVault?.daily, {
    progress: 0,
    of: 4,
    claimed: false,
    objectives: [],
  });
  assert.equal(after.raids?.cleared, 5, "the week's raids still stand");
  assert.equal(after.wizardsVault?.weekly.progress, 3);
  // The player logs in after the reset: today's (planted) completions count again.
  at(testApp, "2026-12-02T00:20:00Z");
  testApp.fake.control.setLastModified("2026-12-02T00:15:00Z");
  const played = (await call(testApp)).result;
  assert.equal(played.stale, false);
  assert.equal(played.worldBosses?.done, 3);
});

Deno.test("weekly reset on a Monday: before 07:30 UTC last week's clears stand, after it they are stale", async () => {
  await using testApp = await app({ start: Date.parse("2026-11-30T07:15:00Z") });
  testApp.fake.control.setLastModified("2026-11-30T07:00:00Z");
  const before = (await call(testApp)).result;
  assert.equal(before.resets.weekly, "2026-11-30T07:30:00Z", "the reset is still ahead");
  assert.equal(before.stale, false);
  assert.equal(before.raids?.cleared, 5);
  at(testApp, "2026-11-30T07:45:00Z");
  const after = (await call(testApp)).result;
  assert.equal(after.resets.weekly, "2026-12-07T07:30:00Z", "the next Monday");
  assert.equal(after.stale, true);
  assert.deepEqual(after.stalePeriods, ["weekly"], "played after the daily reset (00:00)");
  assert.equal(after.raids?.cleared, 0);
  assert.ok(after.raids?.wings.every((wing) => wing.cleared === 0));
  assert.deepEqual(after.wizardsVault?.weekly, {
    progress: 0,
    of: 6,
    claimed: false,
    objectives: [],
  });
  assert.equal(after.worldBosses?.done, 3, "today's dailies stand");
  assert.equal(after.wizardsVault?.daily.progress, 2);
  // Not played since Sunday night: both periods are stale after 07:30.
  at(testApp, "2026-11-30T08:00:00Z");
  testApp.fake.control.setLastModified("2026-11-29T23:00:00Z");
  assert.deepEqual((await call(testApp)).result.stalePeriods, ["daily", "weekly"]);
});

Deno.test("a key without progression or wallet: unread names the scope, the rest answers", async () => {
  await using testApp = await app();
  testApp.fake.control.setLastModified(PLAYED_THIS_MORNING);
  const noProgression = (await call(testApp, TEST_KEYS.noCharacters)).result;
  const parts = ["dailyCrafting", "worldBosses", "mapChests", "dungeons", "raids", "wizardsVault"];
  assert.deepEqual(noProgression.unread, parts.map((part) => ({ part, scope: "progression" })));
  assert.equal(noProgression.acclaim, 640);
  assert.deepEqual(Object.keys(noProgression), ["resets", "stale", "acclaim", "unread"]);
  const noWallet = (await call(testApp, TEST_KEYS.progressionOnly)).result;
  assert.deepEqual(noWallet.unread, [{ part: "acclaim", scope: "wallet" }]);
  assert.equal(noWallet.acclaim, undefined);
  assert.equal(noWallet.worldBosses?.done, 3);
  assert.equal(noWallet.wizardsVault?.special.done, 4);
  const neither = (await call(testApp, TEST_KEYS.accountOnly)).result;
  assert.equal(neither.unread?.length, 7);
  assert.deepEqual(neither.unread?.at(-1), { part: "acclaim", scope: "wallet" });
  const missing = await call(testApp, null);
  assert.equal(missing.isError, true);
  assert.match(missing.text, /X-GW2-Key/);
});

Deno.test("a daily craft earns what priory_craft_profit lists for the item it is sold as", async () => {
  await using testApp = await app({ craft: true });
  testApp.fake.control.setLastModified(PLAYED_THIS_MORNING);
  const crafts = (await call(testApp)).result.dailyCrafting ?? [];
  const lump = crafts.find((row) => row.id === "lump_of_mithrilium");
  assert.ok(lump?.via !== undefined && lump.profit !== undefined, JSON.stringify(lump));
  assert.equal(crafts.find((row) => row.id === "charged_quartz_crystal")?.profit, undefined);
  await using client = await connectClient(testApp.handler);
  const listed = await client.callTool({
    name: "priory_craft_profit",
    arguments: { includeTimeGated: true, limit: 50 },
  });
  const rows = (listed.structuredContent as {
    opportunities: { id: number; profit: number; daily?: true }[];
  }).opportunities;
  for (const craft of crafts) {
    if (craft.via === undefined || craft.profit === undefined || craft.profit <= 0) continue;
    const row = rows.find((entry) => entry.id === craft.via?.id);
    assert.ok(row, `${craft.via.name} is a crafting profit row`);
    assert.equal(craft.profit, row.profit, craft.id);
    assert.equal(row.daily, true);
  }
});

Deno.test("names follow lang; each answer stays within 2,500 tokens, the whole week left included", async () => {
  await using testApp = await app();
  testApp.fake.control.setLastModified("2026-11-20T10:00:00Z");
  const german = await call(testApp, TEST_KEYS.full, { lang: "de" });
  const lump = german.result.dailyCrafting?.find((row) => row.id === "lump_of_mithrilium");
  assert.ok(lump !== undefined && lump.name !== "Lump of Mithrillium", lump?.name);
  for (const key of [TEST_KEYS.full, TEST_KEYS.veteran]) {
    for (const args of [{}, { lang: "de" }]) {
      const { result, text } = await call(testApp, key, args);
      assert.equal(result.stale, true, "stale: every list of what is left is full");
      const tokens = new TextEncoder().encode(JSON.stringify(result)).byteLength / 4;
      assert.ok(tokens <= 2_500, `${tokens} tokens`);
      assert.equal(text, JSON.stringify(result));
    }
  }
});
