/**
 * `priory_today`'s answer, built field by field from what was read (pure): per part what is done
 * and what is left since the last reset, with readable names; a period whose data predates its
 * reset (`resets.ts`) counts nothing as done and says so (`stale`). Every list of what is left
 * is bounded (`more`: the names cut), so the default answer stays within its 2,500 tokens.
 *
 * @module
 */

import type { Unread } from "../account/unread.ts";
import type {
  AccountObjective,
  AccountVaultPeriod,
  AccountVaultSpecial,
  Dungeon,
  Raid,
} from "../gw2/schemas_today.ts";
import { dungeonPathName, mapChestName, readableName } from "./names.ts";
import { nextResets, type Period, predatesSeason, stalePeriods } from "./resets.ts";

/** Names of what is left, per part, before `more` cuts the rest. */
export const LEFT_LIMIT = 15;

/** A catalogue of string ids and the account's completions of it since the reset. */
export interface Completions<C = readonly string[]> {
  readonly catalogue: C;
  readonly done: readonly string[];
}

/** One time-gated craft's facts besides its completion. */
export interface DailyCraftFacts {
  /** The item's name in the language asked. */
  readonly name?: string;
  /** What one craft earns now (`priory_craft_profit`'s sell - cost), when it can be sold. */
  readonly profit?: number;
  /** The tradeable item the craft is sold as, when not itself (`profit` is that craft's). */
  readonly via?: { readonly id: number; readonly name: string };
}

/** The Wizard's Vault as the account reads it. */
export interface VaultProgress {
  readonly daily: AccountVaultPeriod;
  readonly weekly: AccountVaultPeriod;
  readonly special: AccountVaultSpecial;
  /** The season's start (ISO 8601), for the special track's staleness; absent when unread. */
  readonly seasonStart?: string;
}

/** Everything the answer is built from; a part absent was not read (see `unread`). */
export interface TodayInput {
  /** The time of the call (epoch ms, the injected clock's). */
  readonly now: number;
  /** `/v2/account`'s `last_modified`. */
  readonly lastModified: string | undefined;
  readonly dailyCrafting?: Completions & {
    readonly facts: ReadonlyMap<string, DailyCraftFacts>;
  };
  readonly worldBosses?: Completions;
  readonly mapChests?: Completions;
  readonly dungeons?: Completions<readonly Dungeon[]>;
  readonly raids?: Completions<readonly Raid[]>;
  readonly vault?: VaultProgress;
  /** Astral Acclaim held (wallet currency 63). */
  readonly acclaim?: number;
  readonly unread: readonly Unread[];
}

/** Done and left of a daily part. (Object types, to fit the loose output schema.) */
export type Tally = {
  readonly done: number;
  readonly of: number;
  readonly left: string[];
  readonly more?: number;
};

/** One time-gated craft. */
export type DailyCraftRow = {
  readonly id: string;
  readonly name: string;
  readonly done: boolean;
  readonly profit?: number;
  readonly via?: { readonly id: number; readonly name: string };
};

/** One raid wing. */
export type WingRow = {
  readonly id: string;
  readonly name: string;
  readonly cleared: number;
  readonly left: string[];
};

/** One Vault objective. */
export type ObjectiveRow = {
  readonly title: string;
  readonly track: string;
  readonly acclaim: number;
  readonly progress: number;
  readonly of: number;
  readonly claimed: boolean;
};

/** The daily or weekly Vault track. */
export type VaultPeriodRow = {
  readonly progress: number;
  readonly of: number;
  readonly claimed: boolean;
  readonly objectives: ObjectiveRow[];
};

/** `priory_today`'s structured result. */
export type TodayResult = {
  /** The next resets (ISO 8601). */
  readonly resets: { readonly daily: string; readonly weekly: string };
  /** Some period's data predates its reset: its completions are reported not done. */
  readonly stale: boolean;
  /** Which periods, when `stale`. */
  readonly stalePeriods?: Period[];
  readonly dailyCrafting?: DailyCraftRow[];
  readonly worldBosses?: Tally;
  readonly mapChests?: Tally;
  readonly dungeons?: Tally;
  readonly raids?: { readonly cleared: number; readonly of: number; readonly wings: WingRow[] };
  readonly wizardsVault?: {
    readonly daily: VaultPeriodRow;
    readonly weekly: VaultPeriodRow;
    readonly special: { readonly done: number; readonly of: number };
  };
  readonly acclaim?: number;
  readonly unread?: Unread[];
};

/** The answer. */
export function shapeToday(input: TodayInput): TodayResult {
  const stale = stalePeriods(input.lastModified, input.now);
  const dailyStale = stale.includes("daily");
  const weeklyStale = stale.includes("weekly");
  const { dailyCrafting, worldBosses, mapChests, dungeons, raids, vault } = input;
  return {
    resets: nextResets(input.now),
    stale: stale.length > 0,
    ...(stale.length > 0 ? { stalePeriods: stale } : {}),
    ...(dailyCrafting === undefined
      ? {}
      : { dailyCrafting: craftRows(dailyCrafting, dailyStale ? [] : dailyCrafting.done) }),
    ...(worldBosses === undefined
      ? {}
      : { worldBosses: tally(idNames(worldBosses, readableName), dailyStale) }),
    ...(mapChests === undefined
      ? {}
      : { mapChests: tally(idNames(mapChests, mapChestName), dailyStale) }),
    ...(dungeons === undefined ? {} : { dungeons: tally(pathNames(dungeons), dailyStale) }),
    ...(raids === undefined ? {} : { raids: raidRows(raids, weeklyStale ? [] : raids.done) }),
    ...(vault === undefined ? {} : {
      wizardsVault: {
        daily: periodRow(vault.daily, dailyStale),
        weekly: periodRow(vault.weekly, weeklyStale),
        special: specialRow(
          vault.special,
          vault.seasonStart !== undefined && predatesSeason(input.lastModified, vault.seasonStart),
        ),
      },
    }),
    ...(input.acclaim === undefined ? {} : { acclaim: input.acclaim }),
    ...(input.unread.length > 0 ? { unread: [...input.unread] } : {}),
  };
}

/** A part's entries in catalogue order, each named and marked done, for {@linkcode tally}. */
interface Entry {
  readonly name: string;
  readonly done: boolean;
}

/**
 * The catalogue's ids named, then any completion the catalogue lacks (a boss added since the
 * catalogue was cached still counts).
 */
function idNames(part: Completions, name: (id: string) => string): Entry[] {
  const done = new Set(part.done);
  const known = new Set(part.catalogue);
  return [...part.catalogue, ...part.done.filter((id) => !known.has(id))]
    .map((id) => ({ name: name(id), done: done.has(id) }));
}

/** Every dungeon path, named with its dungeon (`/v2/account/dungeons` lists path ids). */
function pathNames(part: Completions<readonly Dungeon[]>): Entry[] {
  const done = new Set(part.done);
  return part.catalogue.flatMap((dungeon) =>
    dungeon.paths.map((path) => ({
      name: dungeonPathName(dungeon.id, path),
      done: done.has(path.id),
    }))
  );
}

function tally(entries: readonly Entry[], stale: boolean): Tally {
  const left = entries.filter((entry) => stale || !entry.done).map((entry) => entry.name);
  return {
    done: entries.length - left.length,
    of: entries.length,
    ...bounded(left),
  };
}

/** `left` cut to {@linkcode LEFT_LIMIT} names, with `more` the names cut. */
function bounded(names: readonly string[]): { left: string[]; more?: number } {
  return names.length > LEFT_LIMIT
    ? { left: names.slice(0, LEFT_LIMIT), more: names.length - LEFT_LIMIT }
    : { left: [...names] };
}

function craftRows(
  part: Completions & { readonly facts: ReadonlyMap<string, DailyCraftFacts> },
  doneIds: readonly string[],
): DailyCraftRow[] {
  const done = new Set(doneIds);
  return part.catalogue.map((id) => {
    const facts = part.facts.get(id);
    return {
      id,
      name: facts?.name ?? readableName(id),
      done: done.has(id),
      ...(facts?.profit === undefined ? {} : { profit: facts.profit }),
      ...(facts?.via === undefined ? {} : { via: facts.via }),
    };
  });
}

function raidRows(part: Completions<readonly Raid[]>, doneIds: readonly string[]) {
  const done = new Set(doneIds);
  const wings = part.catalogue.flatMap((raid) => raid.wings).map((wing): WingRow => {
    const left = wing.events.filter((event) => !done.has(event.id));
    return {
      id: wing.id,
      name: readableName(wing.id),
      cleared: wing.events.length - left.length,
      left: left.map((event) => readableName(event.id)),
    };
  });
  const of = wings.reduce((sum, wing) => sum + wing.cleared + wing.left.length, 0);
  const cleared = wings.reduce((sum, wing) => sum + wing.cleared, 0);
  return { cleared, of, wings };
}

/**
 * A daily or weekly track. Stale, nothing is done, and its objectives are left out: they are last
 * period's, and the new period's are drawn only when the player logs in.
 */
function periodRow(period: AccountVaultPeriod, stale: boolean): VaultPeriodRow {
  return {
    progress: stale ? 0 : period.meta_progress_current,
    of: period.meta_progress_complete,
    claimed: stale ? false : period.meta_reward_claimed,
    objectives: stale ? [] : period.objectives.map(objectiveRow),
  };
}

function objectiveRow(objective: AccountObjective): ObjectiveRow {
  return {
    title: objective.title,
    track: objective.track,
    acclaim: objective.acclaim,
    progress: objective.progress_current,
    of: objective.progress_complete,
    claimed: objective.claimed,
  };
}

/** The special track: objectives done (complete or claimed), none when it predates the season. */
function specialRow(special: AccountVaultSpecial, stale: boolean) {
  const done = stale
    ? 0
    : special.objectives.filter((objective) =>
      objective.claimed || objective.progress_current >= objective.progress_complete
    ).length;
  return { done, of: special.objectives.length };
}
