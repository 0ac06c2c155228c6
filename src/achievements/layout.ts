/**
 * The achievement catalogue's stored layout: per record only what the lookups need - the chain
 * (prerequisites), the items it rewards, the items and skins it collects - as a run of integers,
 * and its name in each language. Pure: the store (`store.ts`) writes and reads these values,
 * the index (`index.ts`) is built from them.
 *
 * A chunk (one KV value) is `{ids, names, packed?}`: the ids and names of a page's records in
 * one language, and, in English, their packed records (`packed`), so a language's names can
 * be added to a generation without the structure again.
 *
 * @module
 */

import { z } from "zod";
import type { Achievement } from "../gw2/schemas_achievements.ts";

/** JSON bytes per chunk: a quarter of KV's 64 KiB value limit (as the recipe catalogue's). */
export const CHUNK_JSON_BYTES = 16_000;

/** Achievement types as coded; another type reads back as `Other`. */
export const ACHIEVEMENT_TYPES = ["Default", "ItemSet", "Other"] as const;

/** What the catalogue keeps of an achievement. */
export interface CatalogueAchievement {
  readonly id: number;
  /** `Default`, `ItemSet` (a collection), or `Other`. */
  readonly type: typeof ACHIEVEMENT_TYPES[number];
  /** The total to reach (the last tier's count). */
  readonly of: number;
  readonly prerequisites: readonly number[];
  /** Items it rewards. */
  readonly rewardItems: readonly number[];
  /** Items it collects (its `Item` bits). */
  readonly bitItems: readonly number[];
  /** Skins it collects (its `Skin` bits). */
  readonly bitSkins: readonly number[];
}

/** An achievement record reduced to what the catalogue keeps. */
export function toCatalogue(record: Achievement): CatalogueAchievement {
  const ids = (type: string) =>
    (record.bits ?? []).flatMap((bit) => bit.type === type && bit.id !== undefined ? [bit.id] : []);
  return {
    id: record.id,
    type: ACHIEVEMENT_TYPES.find((type) => type === record.type) ?? "Other",
    of: record.tiers.at(-1)?.count ?? 0,
    prerequisites: record.prerequisites ?? [],
    rewardItems: (record.rewards ?? []).flatMap((reward) =>
      reward.type === "Item" && reward.id !== undefined ? [reward.id] : []
    ),
    bitItems: ids("Item"),
    bitSkins: ids("Skin"),
  };
}

/**
 * One record as `[id, type, of, n, prerequisite × n, n, reward item × n, n, bit item × n, n,
 * bit skin × n]`.
 */
export function packAchievement(record: CatalogueAchievement): number[] {
  const type = ACHIEVEMENT_TYPES.indexOf(record.type);
  return [
    record.id,
    type === -1 ? 2 : type,
    record.of,
    ...[record.prerequisites, record.rewardItems, record.bitItems, record.bitSkins].flatMap(
      (list) => [list.length, ...list],
    ),
  ];
}

/**
 * The record packed at offset `at` of `numbers` ({@linkcode packAchievement}) and where the
 * next starts; `undefined` when what is there does not fit the layout.
 */
export function achievementAt(
  numbers: ArrayLike<number>,
  at: number,
): { readonly record: CatalogueAchievement; readonly end: number } | undefined {
  if (at + 3 > numbers.length) return undefined;
  const lists: number[][] = [];
  let next = at + 3;
  for (let list = 0; list < 4; list++) {
    const n = numbers[next];
    if (n === undefined || n < 0 || next + 1 + n > numbers.length) return undefined;
    lists.push(Array.from({ length: n }, (_, index) => numbers[next + 1 + index] ?? 0));
    next += 1 + n;
  }
  const [prerequisites = [], rewardItems = [], bitItems = [], bitSkins = []] = lists;
  return {
    record: {
      id: numbers[at] ?? 0,
      type: ACHIEVEMENT_TYPES[numbers[at + 1] ?? 2] ?? "Other",
      of: numbers[at + 2] ?? 0,
      prerequisites,
      rewardItems,
      bitItems,
      bitSkins,
    },
    end: next,
  };
}

/** One stored chunk: a page's records in one language (`packed` in English only). */
export interface CatalogueChunk {
  readonly ids: readonly number[];
  readonly names: readonly string[];
  readonly packed?: readonly number[];
}

/** A named achievement of a page: its name in the page's language, its record in English. */
export interface PageEntry {
  readonly name: string;
  readonly record?: CatalogueAchievement;
}

/**
 * A page's entries as chunks of at most {@linkcode CHUNK_JSON_BYTES} of JSON each (`packed` when
 * the entries carry their records, as English pages do).
 */
export function chunkPage(
  entries: readonly (PageEntry & { readonly id: number })[],
): CatalogueChunk[] {
  const chunks: CatalogueChunk[] = [];
  let ids: number[] = [];
  let names: string[] = [];
  let packed: number[] = [];
  let bytes = 40;
  const flush = () => {
    if (ids.length === 0) return;
    chunks.push(packed.length === 0 ? { ids, names } : { ids, names, packed });
    ids = [];
    names = [];
    packed = [];
    bytes = 40;
  };
  for (const entry of entries) {
    const record = entry.record === undefined ? [] : packAchievement(entry.record);
    const size = JSON.stringify([entry.id, entry.name, record]).length;
    if (bytes + size > CHUNK_JSON_BYTES) flush();
    ids.push(entry.id);
    names.push(entry.name);
    packed.push(...record);
    bytes += size;
  }
  flush();
  return chunks;
}

const ChunkSchema = z.object({
  ids: z.array(z.number().int()),
  names: z.array(z.string()),
  packed: z.array(z.number().int()).optional(),
}).refine((chunk) => chunk.ids.length === chunk.names.length);

/** A stored chunk's entries; a value that does not fit the layout reads as empty. */
export function readChunk(value: unknown): (PageEntry & { readonly id: number })[] {
  const parsed = ChunkSchema.safeParse(value);
  if (!parsed.success) return [];
  const { ids, names, packed } = parsed.data;
  const entries: (PageEntry & { readonly id: number })[] = [];
  let at = 0;
  for (const [index, id] of ids.entries()) {
    const name = names[index] ?? "";
    if (packed === undefined) {
      entries.push({ id, name });
      continue;
    }
    const read = achievementAt(packed, at);
    if (read === undefined || read.record.id !== id) return [];
    entries.push({ id, name, record: read.record });
    at = read.end;
  }
  return packed === undefined || at === packed.length ? entries : [];
}
