/**
 * `priory_today`'s answer (`src/today/shape.ts`): done and left per part, readable names, lists
 * bounded, a stale period's completions reported not done (daily and weekly apart), the Vault's
 * tracks, parts unread left out.
 */
import assert from "node:assert/strict";
import type {
  AccountObjective,
  AccountVaultPeriod,
  Dungeon,
  Raid,
} from "../../src/gw2/schemas_today.ts";
import { LEFT_LIMIT, shapeToday, type TodayInput } from "../../src/today/shape.ts";

/** A Wednesday noon; the last resets: that day 00:00 and Monday 2026-11-30 07:30. */
const NOW = Date.parse("2026-12-02T12:00:00Z");
const PLAYED_TODAY = "2026-12-02T10:00:00Z";
const PLAYED_YESTERDAY = "2026-12-01T22:00:00Z";
const PLAYED_LAST_WEEK = "2026-11-29T22:00:00Z";

const RAIDS: Raid[] = [{
  id: "forsaken_thicket",
  wings: [
    {
      id: "spirit_vale",
      events: [
        { id: "vale_guardian", type: "Boss" },
        { id: "spirit_woods", type: "Checkpoint" },
        { id: "gorseval", type: "Boss" },
      ],
    },
    { id: "salvation_pass", events: [{ id: "slothasor", type: "Boss" }] },
  ],
}];

const DUNGEONS: Dungeon[] = [{
  id: "ascalonian_catacombs",
  paths: [{ id: "ac_story", type: "Story" }, { id: "hodgins", type: "Explorable" }],
}];

function objective(
  id: number,
  progress: number,
  of: number,
  claimed: boolean,
): AccountObjective {
  return {
    id,
    title: `Objective ${id}`,
    track: "PvE",
    acclaim: 10,
    progress_current: progress,
    progress_complete: of,
    claimed,
  };
}

function period(current: number, claimed: boolean): AccountVaultPeriod {
  return {
    meta_progress_current: current,
    meta_progress_complete: 2,
    meta_reward_item_id: 19976,
    meta_reward_astral: 30,
    meta_reward_claimed: claimed,
    objectives: [objective(1, 1, 1, true), objective(2, 0, 3, false)],
  };
}

function input(lastModified: string, extra: Partial<TodayInput> = {}): TodayInput {
  return {
    now: NOW,
    lastModified,
    dailyCrafting: {
      catalogue: ["lump_of_mithrilium", "charged_quartz_crystal"],
      done: ["lump_of_mithrilium"],
      facts: new Map([["lump_of_mithrilium", {
        name: "Lump of Mithrillium",
        profit: 1_234,
        via: { id: 46_738, name: "Deldrimor Steel Ingot" },
      }]]),
    },
    worldBosses: { catalogue: ["tequatl_the_sunless", "the_shatterer"], done: ["the_shatterer"] },
    mapChests: {
      catalogue: ["auric_basin_heros_choice_chest", "verdant_brink_heros_choice_chest"],
      done: [],
    },
    dungeons: { catalogue: DUNGEONS, done: ["hodgins"] },
    raids: { catalogue: RAIDS, done: ["vale_guardian", "spirit_woods"] },
    vault: {
      daily: period(1, false),
      weekly: period(2, true),
      special: { objectives: [objective(21, 1, 1, true), objective(22, 0, 1, false)] },
      seasonStart: "2026-10-27T17:00:00Z",
    },
    acclaim: 640,
    unread: [],
    ...extra,
  };
}

Deno.test("done and left per part, with readable names and the next resets", () => {
  assert.deepEqual(shapeToday(input(PLAYED_TODAY)), {
    resets: { daily: "2026-12-03T00:00:00Z", weekly: "2026-12-07T07:30:00Z" },
    stale: false,
    dailyCrafting: [
      {
        id: "lump_of_mithrilium",
        name: "Lump of Mithrillium",
        done: true,
        profit: 1_234,
        via: { id: 46_738, name: "Deldrimor Steel Ingot" },
      },
      { id: "charged_quartz_crystal", name: "Charged Quartz Crystal", done: false },
    ],
    worldBosses: { done: 1, of: 2, left: ["Tequatl the Sunless"] },
    mapChests: { done: 0, of: 2, left: ["Auric Basin", "Verdant Brink"] },
    dungeons: { done: 1, of: 2, left: ["Ascalonian Catacombs: Story"] },
    raids: {
      cleared: 2,
      of: 4,
      wings: [
        { id: "spirit_vale", name: "Spirit Vale", cleared: 2, left: ["Gorseval"] },
        { id: "salvation_pass", name: "Salvation Pass", cleared: 0, left: ["Slothasor"] },
      ],
    },
    wizardsVault: {
      daily: {
        progress: 1,
        of: 2,
        claimed: false,
        objectives: [
          { title: "Objective 1", track: "PvE", acclaim: 10, progress: 1, of: 1, claimed: true },
          { title: "Objective 2", track: "PvE", acclaim: 10, progress: 0, of: 3, claimed: false },
        ],
      },
      weekly: {
        progress: 2,
        of: 2,
        claimed: true,
        objectives: [
          { title: "Objective 1", track: "PvE", acclaim: 10, progress: 1, of: 1, claimed: true },
          { title: "Objective 2", track: "PvE", acclaim: 10, progress: 0, of: 3, claimed: false },
        ],
      },
      special: { done: 1, of: 2 },
    },
    acclaim: 640,
  });
});

Deno.test("played before today's reset: the daily parts are not done and stale, the weekly ones stand", () => {
  const today = shapeToday(input(PLAYED_YESTERDAY));
  assert.equal(today.stale, true);
  assert.deepEqual(today.stalePeriods, ["daily"]);
  assert.deepEqual(today.dailyCrafting?.map((row) => row.done), [false, false]);
  assert.deepEqual(today.worldBosses, {
    done: 0,
    of: 2,
    left: ["Tequatl the Sunless", "The Shatterer"],
  });
  assert.equal(today.dungeons?.done, 0);
  assert.deepEqual(today.wizardsVault?.daily, {
    progress: 0,
    of: 2,
    claimed: false,
    objectives: [],
  });
  assert.equal(today.raids?.cleared, 2, "this week's clears stand");
  assert.equal(today.wizardsVault?.weekly.progress, 2);
  assert.equal(today.wizardsVault?.special.done, 1);
});

Deno.test("played before the weekly reset: raids and the weekly track are reset too", () => {
  const today = shapeToday(input(PLAYED_LAST_WEEK));
  assert.deepEqual(today.stalePeriods, ["daily", "weekly"]);
  assert.equal(today.raids?.cleared, 0);
  assert.deepEqual(today.raids?.wings[0]?.left, ["Vale Guardian", "Spirit Woods", "Gorseval"]);
  assert.deepEqual(today.wizardsVault?.weekly, {
    progress: 0,
    of: 2,
    claimed: false,
    objectives: [],
  });
  assert.equal(today.wizardsVault?.special.done, 1, "the season started before the last play");
  const lastSeason = shapeToday(input("2026-10-20T12:00:00Z"));
  assert.equal(lastSeason.wizardsVault?.special.done, 0, "a play before the season's start");
});

Deno.test("what is left is bounded, `more` counting the names cut; a completion the catalogue lacks still counts", () => {
  const many = Array.from({ length: LEFT_LIMIT + 4 }, (_, index) => `boss_${index}`);
  const today = shapeToday(input(PLAYED_TODAY, {
    worldBosses: { catalogue: many, done: ["boss_0", "new_boss"] },
  }));
  assert.equal(today.worldBosses?.of, LEFT_LIMIT + 5);
  assert.equal(today.worldBosses?.done, 2);
  assert.equal(today.worldBosses?.left.length, LEFT_LIMIT);
  assert.equal(today.worldBosses?.more, 3);
});

Deno.test("a part not read is left out, and unread says why", () => {
  const today = shapeToday({
    now: NOW,
    lastModified: PLAYED_TODAY,
    acclaim: 12,
    unread: [{ part: "worldBosses", scope: "progression" }],
  });
  assert.deepEqual(today, {
    resets: { daily: "2026-12-03T00:00:00Z", weekly: "2026-12-07T07:30:00Z" },
    stale: false,
    acclaim: 12,
    unread: [{ part: "worldBosses", scope: "progression" }],
  });
});
