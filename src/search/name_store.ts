/**
 * The item-name index in Deno KV: what survives restarts and what every instance shares. Names
 * are stored per language in buckets of {@linkcode BUCKET_SPAN} consecutive ids, so a full index
 * (~75,000 names a language, ~600 buckets each) loads in a few thousand KV values instead of
 * 375,000, and a manifest per language records each bucket's version so an instance re-reads
 * only the buckets that changed. Layout, under `["names", "v2", <upstream base URL>]` (a KV
 * shared by the real API and the fake keeps their names apart; a layout change bumps the
 * version - `v1` held English alone, and is no longer read):
 *
 * | key suffix | value |
 * |---|---|
 * | `"stamp"` | a counter every commit bumps: the one small key an instance polls per query |
 * | `"manifest", lang` | `[bucket, version, ...]` for every non-empty bucket of that language |
 * | `"bucket", lang, n` | `[id, name, rarity, type, ...]` for the ids `n·128 ... n·128+127` |
 * | `"catalogue"` | `{completedAt}` once a pass over the whole catalogue, in every language, has been written |
 *
 * Every write is one language's: it reads that language's manifest and the buckets it touches
 * and commits them together with a check on the manifest, so concurrent writers (instances, the
 * catalogue crawl) serialise on it and a lost race is retried. Limits respected: a bucket stays
 * far below 64 KiB (names capped at {@linkcode NAME_MAX_LENGTH} characters), a commit carries at
 * most {@linkcode BUCKETS_PER_COMMIT} buckets (<= 10 mutations, <= 400 KB), a `getMany` <= 10 keys.
 *
 * @module
 */

import { type Pacer, UNSLICED } from "../async/slices.ts";
import { GET_MANY_LIMIT } from "../kv/limits.ts";
import type { Clock } from "../async/clock.ts";
import { type Lang, LANGUAGES } from "../gw2/types.ts";
import type { NameEntry } from "./name_table.ts";

/** Consecutive ids per bucket. */
export const BUCKET_SPAN = 128;
/** Buckets per commit (plus the manifest and the stamp; one `getMany` reads them all). */
export const BUCKETS_PER_COMMIT = 8;
/** Longest name kept (GW2's longest are under 80); with the field caps a bucket stays < 40 KB. */
export const NAME_MAX_LENGTH = 120;
const FIELD_MAX_LENGTH = 40;
/** Attempts of one commit before giving up (lost races, "database is locked" across processes). */
const COMMIT_ATTEMPTS = 6;
const FIELDS = 4;

/** Bucket -> version, as a language's manifest says. */
export type BucketVersions = ReadonlyMap<number, number>;

/** Each language's bucket versions. */
export type LanguageVersions = ReadonlyMap<Lang, BucketVersions>;

/** What a read of the store returns. */
export interface StoreRead {
  /** Identifies the state read; compare with {@linkcode NameStore.stamp}. */
  readonly stamp: string | null;
  /** Every bucket's version, per language, at the time of the read. */
  readonly versions: LanguageVersions;
  /** The entries of the buckets read, per language (the changed ones, on a refresh). */
  readonly entries: ReadonlyMap<Lang, readonly NameEntry[]>;
  /** When the last full catalogue pass was completed, if one was. */
  readonly completedAt?: number;
}

/** A write could not be committed (KV failing, or lost races beyond the retries). */
export class NameStoreWriteError extends Error {
  constructor(cause: unknown) {
    super("Cannot write to the name index: the KV commit kept failing", { cause });
    this.name = "NameStoreWriteError";
  }
}

/** Options of {@linkcode NameStore}. */
export interface NameStoreOptions {
  /** The KV every instance shares. */
  readonly kv: Deno.Kv;
  /** Keeps the names of different upstreams apart: pass the upstream base URL. */
  readonly namespace: string;
  /** Backoff between commit attempts. */
  readonly clock: Clock;
  /** Jitter source in [0, 1) for that backoff. @default Math.random */
  readonly random?: () => number;
}

/** The KV side of the name index. */
export class NameStore {
  readonly #kv: Deno.Kv;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #root: Deno.KvKey;

  /** @param options the KV, the namespace and a clock for backoff */
  constructor(options: NameStoreOptions) {
    this.#kv = options.kv;
    this.#clock = options.clock;
    this.#random = options.random ?? Math.random;
    this.#root = ["names", "v2", options.namespace];
  }

  /** The current stamp (an eventual read: cheap, may lag a replica by a moment). */
  async stamp(): Promise<string | null> {
    return (await this.#kv.get(this.#key("stamp"), { consistency: "eventual" })).versionstamp;
  }

  /**
   * The stamp, every language's manifest and the catalogue marker, in one strong read: what a
   * load reads first (so no bucket read after it is older than its manifest says).
   */
  head(): Promise<Omit<StoreRead, "entries">> {
    return this.#head();
  }

  /**
   * Every stored entry of `lang`, handed to `take` a bucket at a time in ascending id order
   * (buckets in key order, each sorted): ~600 buckets of 128 at full scale, so a loader never
   * holds a language's entries as objects. Pauses with `pacer` between slices. Returns the
   * entries read.
   */
  async readLanguage(
    lang: Lang,
    take: (entries: readonly NameEntry[]) => void,
    pacer: Pacer = UNSLICED,
  ): Promise<number> {
    let read = 0;
    const list = this.#kv.list({ prefix: [...this.#root, "bucket", lang] }, { batchSize: 25 });
    let start = pacer.now();
    for await (const bucket of list) {
      const entries = parseBucket(bucket.value);
      take(entries);
      read += entries.length;
      if (pacer.due(start)) {
        await pacer.pause();
        start = pacer.now();
      }
    }
    return read;
  }

  /** The buckets whose version differs from `known`, per language, and the new versions. */
  async changes(known: LanguageVersions): Promise<StoreRead> {
    const head = await this.#head();
    const entries = new Map<Lang, NameEntry[]>();
    for (const [lang, versions] of head.versions) {
      const held = known.get(lang);
      const changed = [...versions].filter(([bucket, version]) => held?.get(bucket) !== version)
        .map(([bucket]) => bucket);
      if (changed.length === 0) continue;
      const read: NameEntry[] = [];
      for (let start = 0; start < changed.length; start += GET_MANY_LIMIT) {
        const keys = changed.slice(start, start + GET_MANY_LIMIT).map((n) =>
          this.#bucketKey(lang, n)
        );
        for (const bucket of await this.#kv.getMany(keys)) read.push(...parseBucket(bucket.value));
      }
      entries.set(lang, read);
    }
    return { ...head, entries };
  }

  /**
   * Merges `entries` of `lang` into their buckets (adding or replacing by id; nothing is
   * removed) and returns how many changed something. Unchanged buckets are not written.
   * `known` (the caller's versions of `lang`'s buckets) is advanced for every bucket written
   * from the version the caller held: the caller holds those entries already, so its next
   * {@linkcode changes} does not read its own writes back.
   *
   * @throws {NameStoreWriteError} when a commit keeps failing.
   */
  async merge(
    entries: readonly NameEntry[],
    lang: Lang = "en",
    known?: Map<number, number>,
  ): Promise<number> {
    const byBucket = new Map<number, NameEntry[]>();
    for (const entry of entries) {
      const bucket = bucketOf(entry.id);
      const list = byBucket.get(bucket) ?? [];
      list.push(storedForm(entry));
      byBucket.set(bucket, list);
    }
    const buckets = [...byBucket.keys()].sort((a, b) => a - b);
    let changed = 0;
    for (let start = 0; start < buckets.length; start += BUCKETS_PER_COMMIT) {
      const group = buckets.slice(start, start + BUCKETS_PER_COMMIT);
      changed += await this.#commit(() => this.#mergeGroup(lang, group, byBucket, known));
    }
    return changed;
  }

  /**
   * Records that a pass over the whole catalogue finished at `at` (epoch ms).
   *
   * @throws {NameStoreWriteError} when the commit keeps failing.
   */
  async markCatalogueComplete(at: number): Promise<void> {
    await this.#commit(async () => {
      const result = await this.#kv.atomic()
        .set(this.#key("catalogue"), { completedAt: at })
        .sum(this.#key("stamp"), 1n)
        .commit();
      return result.ok ? 0 : undefined;
    });
  }

  /** One merge attempt over a group of one language's buckets; `undefined` when it lost a race. */
  async #mergeGroup(
    lang: Lang,
    group: readonly number[],
    byBucket: ReadonlyMap<number, readonly NameEntry[]>,
    known: Map<number, number> | undefined,
  ): Promise<number | undefined> {
    const manifestKey = [...this.#root, "manifest", lang];
    const [manifestEntry, ...bucketEntries] = await this.#kv.getMany([
      manifestKey,
      ...group.map((bucket) => this.#bucketKey(lang, bucket)),
    ]);
    if (manifestEntry === undefined) return undefined;
    const manifest = parseManifest(manifestEntry.value);
    const op = this.#kv.atomic().check(manifestEntry);
    let changed = 0;
    const written: number[] = [];
    for (const [index, bucket] of group.entries()) {
      const current = new Map(parseBucket(bucketEntries[index]?.value).map((e) => [e.id, e]));
      let bucketChanged = 0;
      for (const entry of byBucket.get(bucket) ?? []) {
        if (sameEntry(current.get(entry.id), entry)) continue;
        current.set(entry.id, entry);
        bucketChanged++;
      }
      if (bucketChanged === 0) continue;
      changed += bucketChanged;
      const sorted = [...current.values()].sort((a, b) => a.id - b.id);
      op.set(
        this.#bucketKey(lang, bucket),
        sorted.flatMap((e) => [e.id, e.name, e.rarity, e.type]),
      );
      // Held at the version read: the caller's copy is current once this commits.
      if (known !== undefined && known.get(bucket) === manifest.get(bucket)) written.push(bucket);
      manifest.set(bucket, (manifest.get(bucket) ?? 0) + 1);
    }
    if (changed === 0) return 0;
    const flat = [...manifest].sort(([a], [b]) => a - b).flat();
    const result = await op.set(manifestKey, flat).sum(this.#key("stamp"), 1n).commit();
    if (!result.ok) return undefined;
    for (const bucket of written) known?.set(bucket, manifest.get(bucket)!);
    return changed;
  }

  /** Runs `attempt` until it commits, backing off between lost races and KV errors. */
  async #commit(attempt: () => Promise<number | undefined>): Promise<number> {
    let lastError: unknown = new Error("Cannot commit: every attempt lost a race");
    for (let index = 0; index < COMMIT_ATTEMPTS; index++) {
      if (index > 0) await this.#clock.sleep(5 * 2 ** index * (0.5 + this.#random()));
      try {
        const done = await attempt();
        if (done !== undefined) return done;
      } catch (error) {
        lastError = error;
      }
    }
    throw new NameStoreWriteError(lastError);
  }

  /** The stamp, the manifests and the catalogue marker, in one strong read. */
  async #head(): Promise<Omit<StoreRead, "entries">> {
    const [stamp, catalogue, ...manifests] = await this.#kv.getMany([
      this.#key("stamp"),
      this.#key("catalogue"),
      ...LANGUAGES.map((lang) => [...this.#root, "manifest", lang]),
    ]);
    const versions = new Map(
      LANGUAGES.map((lang, index) => [lang, parseManifest(manifests[index]?.value)]),
    );
    const completedAt = parseCompletedAt(catalogue?.value);
    return {
      stamp: stamp?.versionstamp ?? null,
      versions,
      ...(completedAt === undefined ? {} : { completedAt }),
    };
  }

  #key(name: "stamp" | "catalogue"): Deno.KvKey {
    return [...this.#root, name];
  }

  #bucketKey(lang: Lang, bucket: number): Deno.KvKey {
    return [...this.#root, "bucket", lang, bucket];
  }
}

/** The bucket holding `id`. */
export function bucketOf(id: number): number {
  return Math.floor(id / BUCKET_SPAN);
}

/**
 * The form an entry is stored in: only the four fields, each capped in length (see
 * {@linkcode NAME_MAX_LENGTH}), so a caller's record (a whole upstream item) is not retained.
 */
export function storedForm(entry: NameEntry): NameEntry {
  return {
    id: entry.id,
    name: entry.name.slice(0, NAME_MAX_LENGTH),
    rarity: entry.rarity.slice(0, FIELD_MAX_LENGTH),
    type: entry.type.slice(0, FIELD_MAX_LENGTH),
  };
}

function sameEntry(a: NameEntry | undefined, b: NameEntry): boolean {
  return a !== undefined && a.name === b.name && a.rarity === b.rarity && a.type === b.type;
}

/** A stored bucket's entries; a value that does not fit the layout reads as empty. */
function parseBucket(value: unknown): NameEntry[] {
  if (!Array.isArray(value) || value.length % FIELDS !== 0) return [];
  const entries: NameEntry[] = [];
  for (let index = 0; index < value.length; index += FIELDS) {
    const [id, name, rarity, type] = value.slice(index, index + FIELDS);
    if (
      typeof id === "number" && typeof name === "string" && typeof rarity === "string" &&
      typeof type === "string"
    ) {
      entries.push({ id, name, rarity, type });
    }
  }
  return entries;
}

/** Bucket -> version; a value that does not fit the layout reads as empty. */
function parseManifest(value: unknown): Map<number, number> {
  const manifest = new Map<number, number>();
  if (!Array.isArray(value)) return manifest;
  for (let index = 0; index + 1 < value.length; index += 2) {
    const [bucket, version] = value.slice(index, index + 2);
    if (typeof bucket === "number" && typeof version === "number") manifest.set(bucket, version);
  }
  return manifest;
}

function parseCompletedAt(value: unknown): number | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const completedAt: unknown = Reflect.get(value, "completedAt");
  return typeof completedAt === "number" ? completedAt : undefined;
}
