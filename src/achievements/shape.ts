/**
 * `priory_achievements`' rows, from what the I/O side gathered: the records (in the caller's
 * language), the account's progress, the names of what the bits and rewards name, the lowest
 * sell listings, and each row's chain. Pure. Two steps:
 *
 * 1. {@linkcode wanted}: what must be read to shape the rows - the items, skins and minis still
 *    missing (or rewarded), and the items to price;
 * 2. {@linkcode shapeAchievements}: the rows. A collection's `missing` lists the bits not done
 *    yet, in the game's order, each tradeable item (or mini whose item trades) with its lowest
 *    sell listing as `unit`; `missingCost` sums those units over every missing bit, listed or
 *    not (what buying the rest costs now). Without the account's progress (`progress`
 *    undefined: no key, or no `progression` scope) nothing is done: `done` and `progress` are
 *    left out and `missing` is the whole collection.
 *
 * @module
 */

import type {
  AccountAchievement,
  Achievement,
  AchievementBit,
  AchievementReward,
} from "../gw2/schemas_achievements.ts";

/** Missing bits listed in all rows together, at most (the rest counted in `missingMore`). */
export const MISSING_BUDGET = 80;
/** Missing bits listed in one row, at most. */
export const MISSING_PER_ROW = 60;
/** A row's listed missing bits, however many rows share the budget. */
export const MISSING_FLOOR = 8;

/** A missing bit: an item, skin or mini (named, priced when it trades) or a text to do. */
export interface MissingBit {
  readonly type: string;
  readonly id?: number;
  readonly name?: string;
  /** The lowest sell listing (copper), when it trades. */
  readonly unit?: number;
}

/** A reward: an item (named, with its count), coins, a mastery point, a title. */
export interface RewardRow {
  readonly type: string;
  readonly id?: number;
  readonly name?: string;
  readonly count?: number;
  readonly region?: string;
}

/** An achievement before a row's. */
export interface PrerequisiteRow {
  readonly id: number;
  readonly name?: string;
  /** Absent without the account's progress. */
  readonly done?: boolean;
}

/** One row of the result (a type, not an interface: the tool's loose output schema indexes it). */
export type AchievementRow = {
  readonly id: number;
  readonly name: string;
  /** Absent without the account's progress. */
  readonly done?: boolean;
  /** The account's count (absent without its progress). */
  readonly progress?: number;
  /** The achievement's count. */
  readonly of: number;
  readonly missing: MissingBit[];
  /** Missing bits not listed. */
  readonly missingMore?: number;
  /** Copper: the units of every missing bit that trades, summed. */
  readonly missingCost: number;
  readonly rewards: RewardRow[];
  readonly prerequisites: PrerequisiteRow[];
  /** Achievements of the chain not listed. */
  readonly prerequisitesMore?: number;
};

/** What the I/O side found for the names and prices. */
export interface Lookups {
  /** An item's name in the caller's language. */
  readonly itemName: (id: number) => string | undefined;
  /** An item's lowest sell listing (copper), when it trades. */
  readonly unit: (id: number) => number | undefined;
  readonly skinName: (id: number) => string | undefined;
  /** A mini's name, and the item that unlocks it. */
  readonly mini: (id: number) => { readonly name: string; readonly itemId?: number } | undefined;
  /** An achievement's name (the chains' members). */
  readonly achievementName: (id: number) => string | undefined;
}

/** One row's inputs. */
export interface RowInput {
  readonly record: Achievement;
  /** The achievements before it, nearest first, and how many more the chain has. */
  readonly chain: { readonly ids: readonly number[]; readonly more: number };
}

/** The account's progress by achievement id; undefined when it could not be read. */
export type Progress = ReadonlyMap<number, AccountAchievement> | undefined;

/** The bits of `record` not done by `entry` (every bit without one), empty bits dropped. */
export function missingBits(record: Achievement, entry?: AccountAchievement): AchievementBit[] {
  if (entry?.done === true) return [];
  const done = new Set(entry?.bits ?? []);
  return (record.bits ?? []).filter((bit, index) => !done.has(index) && bit.type !== undefined);
}

/** How many missing bits each of `rows` rows lists (they share {@linkcode MISSING_BUDGET}). */
export function listedPerRow(rows: number): number {
  return rows <= 1
    ? MISSING_PER_ROW
    : Math.min(MISSING_PER_ROW, Math.max(MISSING_FLOOR, Math.floor(MISSING_BUDGET / rows)));
}

/** What must be read to shape `rows`. */
export interface Wanted {
  /** Items to name: the missing item bits listed, and the rewards. */
  readonly items: readonly number[];
  /** Skins to name: the missing skin bits listed. */
  readonly skins: readonly number[];
  /** Minis to read: every missing one (its item may trade). */
  readonly minis: readonly number[];
}

/** The items, skins and minis the rows name (see {@linkcode Wanted}). */
export function wanted(rows: readonly RowInput[], progress: Progress): Wanted {
  const items = new Set<number>();
  const skins = new Set<number>();
  const minis = new Set<number>();
  const cap = listedPerRow(rows.length);
  for (const { record } of rows) {
    for (const [index, bit] of missingBits(record, progress?.get(record.id)).entries()) {
      if (bit.id === undefined) continue;
      // Every missing mini is read: its item's price counts in the cost, listed or not.
      if (bit.type === "Minipet") minis.add(bit.id);
      else if (index >= cap) continue;
      else if (bit.type === "Item") items.add(bit.id);
      else if (bit.type === "Skin") skins.add(bit.id);
    }
    for (const reward of record.rewards ?? []) {
      if (reward.type === "Item" && reward.id !== undefined) items.add(reward.id);
    }
  }
  return { items: [...items], skins: [...skins], minis: [...minis] };
}

/** The items whose prices the rows need: missing item bits and the missing minis' items. */
export function toPrice(
  rows: readonly RowInput[],
  progress: Progress,
  lookups: Pick<Lookups, "mini">,
): number[] {
  const ids = new Set<number>();
  for (const { record } of rows) {
    for (const bit of missingBits(record, progress?.get(record.id))) {
      if (bit.id === undefined) continue;
      if (bit.type === "Item") ids.add(bit.id);
      const item = bit.type === "Minipet" ? lookups.mini(bit.id)?.itemId : undefined;
      if (item !== undefined) ids.add(item);
    }
  }
  return [...ids];
}

/** The rows, in `rows`' order, their missing lists within the budget. */
export function shapeAchievements(
  rows: readonly RowInput[],
  progress: Progress,
  lookups: Lookups,
): AchievementRow[] {
  const cap = listedPerRow(rows.length);
  return rows.map((row) => shapeRow(row, progress, lookups, cap));
}

function shapeRow(
  { record, chain }: RowInput,
  progress: Progress,
  lookups: Lookups,
  cap: number,
): AchievementRow {
  const entry = progress?.get(record.id);
  const missing = missingBits(record, entry).map((bit) => missingBit(bit, lookups));
  const of = entry?.max ?? record.tiers.at(-1)?.count ?? 0;
  const done = entry?.done === true;
  return {
    id: record.id,
    name: record.name,
    ...(progress === undefined
      ? {}
      : { done, progress: done ? Math.max(of, entry?.current ?? 0) : entry?.current ?? 0 }),
    of,
    missing: missing.slice(0, cap),
    ...(missing.length > cap ? { missingMore: missing.length - cap } : {}),
    missingCost: missing.reduce((sum, bit) => sum + (bit.unit ?? 0), 0),
    rewards: (record.rewards ?? []).map((reward) => rewardRow(reward, lookups)),
    prerequisites: chain.ids.map((id) => {
      const name = lookups.achievementName(id);
      return {
        id,
        ...(name === undefined ? {} : { name }),
        ...(progress === undefined ? {} : { done: progress.get(id)?.done === true }),
      };
    }),
    ...(chain.more > 0 ? { prerequisitesMore: chain.more } : {}),
  };
}

function missingBit(bit: AchievementBit, lookups: Lookups): MissingBit {
  const type = bit.type ?? "";
  if (bit.id === undefined) return { type, ...(bit.text === undefined ? {} : { name: bit.text }) };
  const id = bit.id;
  const named = (name: string | undefined, unit?: number): MissingBit => ({
    type,
    id,
    ...(name === undefined ? {} : { name }),
    ...(unit === undefined || unit <= 0 ? {} : { unit }),
  });
  switch (type) {
    case "Item":
      return named(lookups.itemName(id), lookups.unit(id));
    case "Skin":
      return named(lookups.skinName(id));
    case "Minipet": {
      const mini = lookups.mini(id);
      return named(mini?.name, mini?.itemId === undefined ? undefined : lookups.unit(mini.itemId));
    }
    default:
      return named(undefined);
  }
}

function rewardRow(reward: AchievementReward, lookups: Lookups): RewardRow {
  const name = reward.type === "Item" && reward.id !== undefined
    ? lookups.itemName(reward.id)
    : undefined;
  return {
    type: reward.type,
    ...(reward.id === undefined ? {} : { id: reward.id }),
    ...(name === undefined ? {} : { name }),
    ...(reward.count === undefined ? {} : { count: reward.count }),
    ...(reward.region === undefined ? {} : { region: reward.region }),
  };
}
