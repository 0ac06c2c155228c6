/**
 * `priory_achievements`' work: which achievements (by name, ids, or an item they reward or
 * collect), their records in the caller's language, the account's progress, the names of what
 * their missing bits and rewards are, the lowest sell listings of what trades, and each one's
 * chain; then the rows (`shape.ts`, pure).
 *
 * Without the player's key, or without `progression`, the catalogue still answers: the rows say
 * nothing about the account (no `done`, no `progress`, every bit missing: what the whole
 * collection takes and costs), and `unread` names the permission. A name or item lookup needs
 * the catalogue (`catalogue.ts`): filled on demand when none is published.
 *
 * @module
 */

import { readPart, type Unread, unreadOf, valueOf } from "../account/unread.ts";
import { Gw2NotFoundError } from "../gw2/errors.ts";
import type { AccountAchievement, Achievement } from "../gw2/schemas_achievements.ts";
import { type Gw2Client, type Lang, LANGUAGES } from "../gw2/types.ts";
import { lowestSells } from "../market/trading_post.ts";
import type { NameIndex } from "../search/name_index.ts";
import { itemNamesIn } from "../search/localize.ts";
import type { AchievementCatalogue } from "./catalogue.ts";
import { type AchievementIndex, MAX_CHAIN, prerequisiteChain } from "./index.ts";
import {
  type AchievementRow,
  type Lookups,
  type Progress,
  type RowInput,
  shapeAchievements,
  toPrice,
  wanted,
} from "./shape.ts";

/** The most achievements a name or item lookup answers with. */
export const MAX_MATCHES = 10;
/** Rounds of reading a chain's records when no catalogue tells the chains at once. */
const CHAIN_ROUNDS = 4;

/** What to look up: exactly one of a name, ids, or an item. */
export type AchievementQuery =
  | { readonly query: string }
  | { readonly ids: readonly number[] }
  | { readonly item: number };

/** What the work reads with. */
export interface AchievementsDeps {
  readonly gw2: Pick<Gw2Client, "bulk" | "doc" | "itemNames" | "prices">;
  readonly names?: Pick<NameIndex, "namesOf">;
  /** The achievement catalogue; without one only `ids` can be answered. */
  readonly catalogue?: Pick<AchievementCatalogue, "fill" | "usable" | "status">;
  /** The player's key, when the call carried one. */
  readonly key?: string;
}

/** The result. */
export interface AchievementsResult {
  readonly achievements: AchievementRow[];
  /** Achievements of an item lookup not listed. */
  readonly more?: number;
  /** Ids asked for that the GW2 API does not know. */
  readonly missing_ids?: number[];
  /** What the key could not read, and the permission it needs. */
  readonly unread?: Unread[];
  /** On a lookup that found nothing: how many achievements the catalogue holds, in which languages. */
  readonly catalogue?: { readonly achievements: number; readonly langs: Lang[] };
}

/** A name or item lookup needs the catalogue, which could not be filled just now. */
export class AchievementCatalogueNotReadyError extends Error {
  constructor() {
    super("The achievement catalogue is not ready: its pages could not be read");
    this.name = "AchievementCatalogueNotReadyError";
  }
}

/** Runs a lookup (see the module). */
export async function runAchievements(
  query: AchievementQuery,
  lang: Lang,
  deps: AchievementsDeps,
): Promise<AchievementsResult> {
  const { gw2, key } = deps;
  const found = await lookup(query, lang, deps);
  // The account's progress, read beside the records.
  const progressing = key === undefined
    ? Promise.resolve({ unread: { part: "progress", scope: "progression" } })
    : readPart("progress", () => gw2.doc("accountAchievements", { key }));
  if (found.ids.length === 0) {
    const progressRead = await progressing;
    const status = await deps.catalogue?.status();
    return {
      achievements: [],
      ...(status === undefined
        ? {}
        : { catalogue: { achievements: status.achievements, langs: [...status.langs] } }),
      ...unreadField([progressRead]),
    };
  }
  const [progressRead, read] = await Promise.all([
    progressing,
    gw2.bulk("achievements", found.ids, lang),
  ]);
  const progress: Progress = progressMap(valueOf(progressRead)?.value);
  if (read.found.length === 0) throw new Gw2NotFoundError(read.missingIds, "achievement");
  const index = found.index ?? await deps.catalogue?.usable();
  const { chains, known } = await readChains(read.found, index, lang, gw2);
  const rows: RowInput[] = read.found.map((record) => ({
    record,
    chain: chains.get(record.id) ?? { ids: [], more: 0 },
  }));
  const lookups = await gather(rows, progress, known, lang, deps);
  return {
    achievements: shapeAchievements(rows, progress, lookups),
    ...(found.more > 0 ? { more: found.more } : {}),
    ...(read.missingIds.length > 0 ? { missing_ids: [...read.missingIds] } : {}),
    ...unreadField([progressRead]),
  };
}

function unreadField(
  reads: Parameters<typeof unreadOf>[0],
): { readonly unread?: Unread[] } {
  const unread = unreadOf(reads);
  return unread.length === 0 ? {} : { unread };
}

function progressMap(entries: readonly AccountAchievement[] | undefined): Progress {
  return entries === undefined ? undefined : new Map(entries.map((entry) => [entry.id, entry]));
}

/** The ids a query names, and the catalogue when it was needed. */
async function lookup(
  query: AchievementQuery,
  lang: Lang,
  deps: AchievementsDeps,
): Promise<
  { readonly ids: readonly number[]; readonly more: number; readonly index?: AchievementIndex }
> {
  if ("ids" in query) return { ids: query.ids, more: 0 };
  // A name may be in any of the five languages: a name lookup needs every language's names.
  const index = await deps.catalogue?.fill(undefined, "query" in query ? LANGUAGES : ["en"]);
  if (index === undefined) throw new AchievementCatalogueNotReadyError();
  if ("query" in query) {
    return {
      ids: index.search(query.query, MAX_MATCHES, lang).map((match) => match.id),
      more: 0,
      index,
    };
  }
  const all = index.byItem(query.item);
  return { ids: all.slice(0, MAX_MATCHES), more: Math.max(0, all.length - MAX_MATCHES), index };
}

/**
 * Each record's chain, and the records of every achievement named in one (for their names in
 * `lang`): from the catalogue when there is one (prerequisites and the collections a step
 * collects from), else from the records' own prerequisites, read round by round.
 */
async function readChains(
  records: readonly Achievement[],
  index: AchievementIndex | undefined,
  lang: Lang,
  gw2: AchievementsDeps["gw2"],
): Promise<{
  readonly chains: ReadonlyMap<number, { readonly ids: readonly number[]; readonly more: number }>;
  readonly known: ReadonlyMap<number, Achievement>;
}> {
  const known = new Map(records.map((record) => [record.id, record]));
  const asked = new Set(known.keys());
  const before = (id: number) => index?.before(id) ?? known.get(id)?.prerequisites ?? [];
  const chainsOf = () =>
    new Map(records.map((record) => [record.id, prerequisiteChain(record.id, before, MAX_CHAIN)]));
  let chains = chainsOf();
  for (let round = 0; round < CHAIN_ROUNDS; round++) {
    // Each id is asked once: one upstream does not know stays unnamed.
    const unknown = [...new Set([...chains.values()].flatMap((chain) => chain.ids))]
      .filter((id) => !asked.has(id));
    if (unknown.length === 0) break;
    for (const id of unknown) asked.add(id);
    const read = await gw2.bulk("achievements", unknown, lang);
    for (const record of read.found) known.set(record.id, record);
    chains = chainsOf();
  }
  return { chains, known };
}

/** The names and prices the rows need, read at once. */
async function gather(
  rows: readonly RowInput[],
  progress: Progress,
  known: ReadonlyMap<number, Achievement>,
  lang: Lang,
  deps: AchievementsDeps,
): Promise<Lookups> {
  const { gw2 } = deps;
  const want = wanted(rows, progress);
  const [itemNames, skins, minis] = await Promise.all([
    itemNamesIn(gw2, deps.names, want.items, lang),
    want.skins.length === 0 ? undefined : gw2.bulk("skins", want.skins, lang),
    want.minis.length === 0 ? undefined : gw2.bulk("minis", want.minis, lang),
  ]);
  const skinNames = new Map(skins?.found.map((skin) => [skin.id, skin.name]));
  const miniRecords = new Map(minis?.found.map((mini) => [mini.id, mini]));
  const mini: Lookups["mini"] = (id) => {
    const record = miniRecords.get(id);
    if (record === undefined) return undefined;
    return record.item_id === undefined
      ? { name: record.name }
      : { name: record.name, itemId: record.item_id };
  };
  const priceIds = toPrice(rows, progress, { mini });
  const prices = priceIds.length === 0 ? undefined : await gw2.prices(priceIds);
  const units = lowestSells(prices?.found ?? []);
  return {
    itemName: (id) => itemNames.get(id),
    unit: (id) => units.get(id),
    skinName: (id) => skinNames.get(id),
    mini,
    achievementName: (id) => known.get(id)?.name,
  };
}
