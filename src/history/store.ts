/**
 * The price history in Deno KV: snapshots (`raw`), hourly and daily bars, when each item was
 * first seen, and the running volumes. Layout, under `["history", "v1", <upstream base URL>]`
 * (a layout change bumps `v1`):
 *
 * | key suffix | value |
 * |---|---|
 * | `tier, "index", t` | `{whole, ids, shards}`: the period starting (a snapshot: taken) at `t` |
 * | `tier, "shards", t` | the shard numbers written for it, packed |
 * | `tier, "data", shard, t` | one shard's packed ticks or bars (`codec.ts`) |
 * | `"seen", shard` | first-seen minute of each id of a raw shard |
 * | `"origin"` | `{t}`: the first snapshot this KV ever took |
 * | `"rollup"` | `{hourlyUntil, dailyUntil}`: how far the roll-ups are |
 * | `"volumes-head"`, `"volumes", gen, shard` | the running volumes, a generation an hour (`src/kv/generations.ts`) |
 *
 * **Whole or absent.** A period is written in three steps: its index entry, marked not whole,
 * with its shard list (a commit that fails if the entry exists: one writer per period); its
 * shards, in as many commits as KV's limits need (`src/kv/batch.ts`); then the entry marked
 * whole, in one commit with what the period makes visible besides (a snapshot's first-seen times,
 * the origin). Readers use only whole periods, so a writer that crashed part-way leaves nothing
 * visible, and retention removes what it wrote. Deleting runs the other way: the entry is
 * unmarked first. Keys sort by shard, then time, so one item's series is one range read.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { batches, commitInBatches, commitWithRetry, type KvWrite } from "../kv/batch.ts";
import { GenerationStore } from "../kv/generations.ts";
import { mapWithConcurrency } from "../async/concurrency.ts";
import {
  type Bar,
  decodeBarSeries,
  decodeNumbers,
  decodeSeen,
  decodeTickSeries,
  decodeVolumes,
  encodeBars,
  encodeNumbers,
  encodeSeen,
  encodeTicks,
  encodeVolumes,
  groupByShard,
  type Period,
  type Seen,
  segmentStart,
  SHARD_SPAN,
  shardOf,
  type StoredValue,
  type Tick,
  type Volume,
} from "./codec.ts";
import type { RollupState } from "./rollup.ts";

/** The three resolutions kept. */
export type Tier = keyof typeof SHARD_SPAN;

/** A period's length in minutes (a bar's `covered` is packed as its difference from it). */
const PERIOD_MINUTES = { raw: 0, hourly: 60, daily: 1440 } as const;
/** Shard reads in flight at once when a whole period is decoded. */
const READ_CONCURRENCY = 8;

/** One period's records by shard: a write's base. */
interface PeriodRecords<T> {
  readonly t: number;
  readonly byShard: ReadonlyMap<number, readonly T[]>;
}

/** The base of shard `shard` of the period at `t`: the base period's records there, if any. */
function baseOf<T>(
  base: PeriodRecords<T> | undefined,
  t: number,
  shard: number,
): { gap: number; records: readonly T[] } | undefined {
  const records = base?.byShard.get(shard);
  return base === undefined || records === undefined ? undefined : { gap: t - base.t, records };
}

/** What a period's index entry says. */
export interface PeriodEntry {
  readonly whole: boolean;
  /** Items written. */
  readonly ids: number;
  /** Shard values written. */
  readonly shards: number;
}

/** What writing one period did. */
export interface WriteReport {
  readonly ids: number;
  readonly shards: number;
  /** Bytes of packed values written (shards, first-seen updates). */
  readonly bytes: number;
  readonly commits: number;
}

/** The running volumes, as published. */
export interface VolumesHead {
  /** Generation: the end of the last hour folded in (epoch ms). */
  readonly until: number;
  /** The most minutes any item's volume rests on (decayed). */
  readonly covered: number;
}

/** Options of {@linkcode HistoryStore}. */
export interface HistoryStoreOptions {
  readonly kv: Deno.Kv;
  /** Keeps the histories of different upstreams apart: the upstream base URL. */
  readonly namespace: string;
  /** For the pause between commit attempts when another process holds the lock. */
  readonly clock: Clock;
}

/** The KV side of the price history. */
export class HistoryStore {
  readonly #kv: Deno.Kv;
  readonly #root: Deno.KvKey;
  readonly #clock: Clock;
  readonly #volumes: GenerationStore<VolumesGeneration>;
  /** What this store wrote last per tier: the next period's base, without reading it back. */
  readonly #last: {
    raw?: PeriodRecords<Tick>;
    hourly?: PeriodRecords<Bar>;
    daily?: PeriodRecords<Bar>;
  } = {};

  /** @param options the KV, the namespace and the clock */
  constructor(options: HistoryStoreOptions) {
    this.#kv = options.kv;
    this.#root = ["history", "v1", options.namespace];
    this.#clock = options.clock;
    this.#volumes = new GenerationStore({
      kv: options.kv,
      headKey: [...this.#root, "volumes-head"],
      dataPrefix: [...this.#root, "volumes"],
      parseHead: parseVolumesHead,
    });
  }

  /**
   * Writes the snapshot taken at `t`, with the first-seen minute of every item not seen before:
   * each shard a delta against the previous snapshot of its hour (see `codec.ts`) when this store
   * wrote that one, or `previous` is it (the market sheet before: what another instance wrote),
   * else a keyframe.
   *
   * @returns what was written, or `undefined` when a snapshot at `t` exists already
   */
  async writeSnapshot(
    t: number,
    ticks: readonly Tick[],
    signal?: AbortSignal,
    previous?: { readonly t: number; readonly ticks: readonly Tick[] },
  ): Promise<WriteReport | undefined> {
    const shards = groupByShard(ticks, SHARD_SPAN.raw);
    const hint = previous === undefined
      ? undefined
      : { t: previous.t, byShard: groupByShard(previous.ticks, SHARD_SPAN.raw) };
    const base = await this.#base("raw", t, [this.#last.raw, hint]);
    const values = new Map(
      [...shards].map(([shard, group]) => [shard, encodeTicks(group, baseOf(base, t, shard))]),
    );
    const seen = await this.#newlySeen(shards, Math.floor(t / 60_000));
    const report = await this.#writePeriod("raw", t, values, ticks.length, seen, signal, false);
    if (report !== undefined) this.#last.raw = { t, byShard: shards };
    return report;
  }

  /**
   * Writes the bars of the period starting at `start` (`hourly` or `daily`), each shard a delta
   * against the same shard's previous period of its segment (read back when this store did not
   * write it), or a keyframe. A period already whole is left as it is; one a crashed writer left
   * unfinished is written again.
   */
  async writeBars(
    tier: "hourly" | "daily",
    start: number,
    bars: readonly Bar[],
    signal?: AbortSignal,
  ): Promise<WriteReport | undefined> {
    const shards = groupByShard(bars, SHARD_SPAN[tier]);
    const base = await this.#base(
      tier,
      start,
      [this.#last[tier]],
      (t) => this.#decodedPeriod(tier, t, (shard, times) => this.#barSeries(tier, shard, times)),
    );
    const minutes = PERIOD_MINUTES[tier];
    const values = new Map<number, Uint8Array>();
    for (const [shard, group] of shards) {
      values.set(shard, encodeBars(group, minutes, baseOf(base, start, shard)));
    }
    const report = await this.#writePeriod(tier, start, values, bars.length, [], signal, true);
    if (report !== undefined) this.#last[tier] = { t: start, byShard: shards };
    return report;
  }

  /**
   * The records of the previous whole period of `tier` before `t` in its segment, by shard - what
   * `t`'s shards are written against: one of `known` (this store's last write, the snapshot's
   * previous sheet) when it is that period; else what `readBack` reads (bars: a snapshot without a base is a keyframe, cheaper
   * than reading an hour back). `undefined`: keyframes.
   */
  async #base<T>(
    tier: Tier,
    t: number,
    known: readonly (PeriodRecords<T> | undefined)[],
    readBack?: (t: number) => Promise<Map<number, T[]>>,
  ): Promise<PeriodRecords<T> | undefined> {
    const prefix = [...this.#root, tier, "index"];
    let previous: number | undefined;
    const entries = this.#kv.list<PeriodEntry>(
      { start: [...prefix, segmentStart(tier, t)], end: [...prefix, t] },
      { reverse: true, batchSize: 16 },
    );
    for await (const entry of entries) {
      const at = entry.key.at(-1);
      if (typeof at === "number" && parseEntry(entry.value)?.whole === true) {
        previous = at;
        break;
      }
    }
    if (previous === undefined) return undefined;
    const match = known.find((candidate) => candidate?.t === previous);
    if (match !== undefined) return match;
    return readBack === undefined ? undefined : { t: previous, byShard: await readBack(previous) };
  }

  async #writePeriod(
    tier: Tier,
    t: number,
    values: ReadonlyMap<number, Uint8Array>,
    ids: number,
    seen: readonly KvWrite[],
    signal: AbortSignal | undefined,
    redoUnfinished: boolean,
  ): Promise<WriteReport | undefined> {
    const indexKey = this.#key(tier, "index", t);
    const originKey = [...this.#root, "origin"];
    const [existing, origin] = await this.#kv.getMany<[PeriodEntry, unknown]>([
      indexKey,
      originKey,
    ]);
    const entry = parseEntry(existing.value);
    if (entry !== undefined && (entry.whole || !redoUnfinished)) return undefined;
    const claimed: PeriodEntry = { whole: false, ids, shards: values.size };
    // A period written again after a cut: the shards the first attempt wrote and this one does
    // not are deleted, and stay listed until they are, so retention finds them if this is cut too.
    const left = entry === undefined
      ? []
      : (await this.shardsOf(tier, t)).filter((shard) => !values.has(shard));
    const shardList = encodeNumbers([...values.keys(), ...left]);
    const claim = await commitWithRetry(
      () =>
        this.#kv.atomic().check(existing).set(indexKey, claimed).set(
          this.#key(tier, "shards", t),
          shardList,
        ),
      this.#clock,
    );
    if (!claim.ok) return undefined;
    // What the period makes visible besides itself - first-seen times, the origin - is published
    // with it, in its last commit, so a writer cut short leaves none of it. First-seen times too
    // many for that commit (a first snapshot of a vast market) go before it.
    const first = tier === "raw" && origin.versionstamp === null;
    const publish: KvWrite[] = [{ key: indexKey, value: { ...claimed, whole: true } }, ...seen];
    const inPublish = batches(publish).length === 1;
    const writes: KvWrite[] = [
      ...[...values].map(([shard, value]) => ({ key: this.#key(tier, "data", shard, t), value })),
      ...left.map((shard) => ({ key: this.#key(tier, "data", shard, t) })),
      ...(inPublish ? [] : seen),
    ];
    const commits = await commitInBatches(this.#kv, writes, signal, this.#clock);
    const published = await commitWithRetry(() => {
      const op = this.#kv.atomic().check({ key: indexKey, versionstamp: claim.versionstamp });
      if (first) op.check(origin).set(originKey, { t });
      for (const write of inPublish ? publish : publish.slice(0, 1)) op.set(write.key, write.value);
      return op;
    }, this.#clock);
    if (!published.ok) return undefined;
    const bytes = [...writes, ...(inPublish ? seen : [])].reduce(
      (sum, write) => sum + (write.value instanceof Uint8Array ? write.value.byteLength : 0),
      0,
    );
    return { ids, shards: values.size, bytes, commits: commits + 2 };
  }

  /** The first-seen updates for ids of `shards` not seen before, as writes. */
  async #newlySeen(shards: ReadonlyMap<number, readonly Tick[]>, minute: number): Promise<
    KvWrite[]
  > {
    const known = new Map<number, Seen[]>();
    for await (const entry of this.#kv.list<Uint8Array>({ prefix: [...this.#root, "seen"] })) {
      const shard = entry.key.at(-1);
      if (typeof shard === "number" && entry.value instanceof Uint8Array) {
        known.set(shard, decodeSeen(entry.value));
      }
    }
    const writes: KvWrite[] = [];
    for (const [shard, ticks] of shards) {
      const before = known.get(shard) ?? [];
      const ids = new Set(before.map((entry) => entry.id));
      const fresh = ticks.filter((tick) => !ids.has(tick.id)).map((tick) => ({
        id: tick.id,
        minute,
      }));
      if (fresh.length === 0) continue;
      const merged = [...before, ...fresh].sort((a, b) => a.id - b.id);
      writes.push({ key: [...this.#root, "seen", shard], value: encodeSeen(merged) });
    }
    return writes;
  }

  /** The time of the first snapshot this KV took (epoch ms), kept for good. */
  async origin(): Promise<number | undefined> {
    const value = (await this.#kv.get([...this.#root, "origin"])).value;
    const t: unknown = typeof value === "object" && value !== null
      ? Reflect.get(value, "t")
      : undefined;
    return typeof t === "number" ? t : undefined;
  }

  /** The whole periods of `tier` starting in `[from, to)`, oldest first. */
  async periods(tier: Tier, from: number, to: number): Promise<number[]> {
    const times: number[] = [];
    const prefix = [...this.#root, tier, "index"];
    // A year of days in one round trip, not four (KV lists 100 entries a batch by default).
    const entries = this.#kv.list<PeriodEntry>(
      { start: [...prefix, from], end: [...prefix, to] },
      { batchSize: 1000 },
    );
    for await (const entry of entries) {
      const t = entry.key.at(-1);
      if (typeof t === "number" && parseEntry(entry.value)?.whole === true) times.push(t);
    }
    return times;
  }

  /** The latest whole period of `tier`, if any. */
  async latest(tier: Tier): Promise<number | undefined> {
    const prefix = [...this.#root, tier, "index"];
    // The newest is nearly always whole: a few entries, not a batch of 100.
    const entries = this.#kv.list<PeriodEntry>({ prefix }, { reverse: true, batchSize: 4 });
    for await (const entry of entries) {
      const t = entry.key.at(-1);
      if (typeof t === "number" && parseEntry(entry.value)?.whole === true) return t;
    }
    return undefined;
  }

  /**
   * The ticks of raw shard `shard` at each of `times` (whole snapshots, time ascending), decoded
   * as one series: a time whose delta cannot be decoded from the times before it is left out, so
   * `times` should start at the segment of the first one wanted (`segmentStart`). `only`: the
   * ids wanted (all by default).
   */
  async shardTicks(
    shard: number,
    times: readonly number[],
    only?: ReadonlySet<number>,
  ): Promise<{ t: number; ticks: Tick[] }[]> {
    return (await this.#tickSeries(shard, times, only)).map(({ t, records }) => ({
      t,
      ticks: records,
    }));
  }

  /** The bars of `tier`'s shard `shard` for each period of `starts`, as {@linkcode shardTicks}. */
  async shardBars(
    tier: "hourly" | "daily",
    shard: number,
    starts: readonly number[],
    only?: ReadonlySet<number>,
  ): Promise<{ t: number; bars: Bar[] }[]> {
    return (await this.#barSeries(tier, shard, starts, only)).map(({ t, records }) => ({
      t,
      bars: records,
    }));
  }

  async #tickSeries(
    shard: number,
    times: readonly number[],
    only?: ReadonlySet<number>,
  ): Promise<Period<Tick>[]> {
    return decodeTickSeries(await this.#shardValues("raw", shard, times), only);
  }

  async #barSeries(
    tier: Tier,
    shard: number,
    times: readonly number[],
    only?: ReadonlySet<number>,
  ): Promise<Period<Bar>[]> {
    const values = await this.#shardValues(tier, shard, times);
    return decodeBarSeries(values, PERIOD_MINUTES[tier], only);
  }

  async #shardValues(
    tier: Tier,
    shard: number,
    times: readonly number[],
  ): Promise<StoredValue[]> {
    const first = times[0];
    const last = times.at(-1);
    if (first === undefined || last === undefined) return [];
    const wanted = new Set(times);
    const prefix = [...this.#root, tier, "data", shard];
    const out: StoredValue[] = [];
    const entries = this.#kv.list<Uint8Array>(
      { start: [...prefix, first], end: [...prefix, last + 1] },
      { batchSize: 1000 },
    );
    for await (const entry of entries) {
      const t = entry.key.at(-1);
      if (typeof t === "number" && wanted.has(t) && entry.value instanceof Uint8Array) {
        out.push({ t, value: entry.value });
      }
    }
    return out;
  }

  /** The shards written for the period of `tier` at `t`. */
  async shardsOf(tier: Tier, t: number): Promise<number[]> {
    const list = (await this.#kv.get(this.#key(tier, "shards", t))).value;
    return list instanceof Uint8Array ? decodeNumbers(list) : [];
  }

  /** Every tick of the whole snapshot at `t`. */
  async snapshot(t: number): Promise<Tick[]> {
    const last = this.#last.raw;
    const byShard = last?.t === t
      ? last.byShard
      : await this.#decodedPeriod("raw", t, (shard, times) => this.#tickSeries(shard, times));
    return [...byShard.values()].flat();
  }

  /** Every bar of the whole period of `tier` starting at `start`. */
  async bars(tier: "hourly" | "daily", start: number): Promise<Bar[]> {
    const byShard = await this.#decodedPeriod(
      tier,
      start,
      (shard, times) => this.#barSeries(tier, shard, times),
    );
    return [...byShard.values()].flat();
  }

  /**
   * The records of the whole period of `tier` at `t`, by shard (ascending), each shard's series
   * read by `series` from the start of `t`'s segment.
   */
  async #decodedPeriod<T>(
    tier: Tier,
    t: number,
    series: (shard: number, times: readonly number[]) => Promise<Period<T>[]>,
  ): Promise<Map<number, T[]>> {
    const [shards, times] = await Promise.all([
      this.shardsOf(tier, t),
      this.periods(tier, segmentStart(tier, t), t + 1),
    ]);
    const out = new Map<number, T[]>();
    if (times.at(-1) !== t) return out;
    const read = await mapWithConcurrency(shards, READ_CONCURRENCY, async (shard) => {
      const at = (await series(shard, times)).at(-1);
      return at?.t === t ? [[shard, at.records] as const] : [];
    });
    for (const [shard, records] of read.flat()) out.set(shard, records);
    return out;
  }

  /** First-seen times (epoch ms) of `ids`; an id never seen is absent. */
  async seen(ids: readonly number[]): Promise<Map<number, number>> {
    const wanted = new Set(ids);
    const shards = [...new Set(ids.map((id) => shardOf(id, SHARD_SPAN.raw)))];
    const out = new Map<number, number>();
    for (let index = 0; index < shards.length; index += 10) {
      const keys = shards.slice(index, index + 10).map((shard) => [...this.#root, "seen", shard]);
      for (const entry of await this.#kv.getMany<Uint8Array[]>(keys)) {
        if (!(entry.value instanceof Uint8Array)) continue;
        for (const record of decodeSeen(entry.value)) {
          if (wanted.has(record.id)) out.set(record.id, record.minute * 60_000);
        }
      }
    }
    return out;
  }

  /** How far the roll-ups are. */
  async rollupState(): Promise<RollupState> {
    const value = (await this.#kv.get([...this.#root, "rollup"])).value;
    if (typeof value !== "object" || value === null) return {};
    const hourlyUntil: unknown = Reflect.get(value, "hourlyUntil");
    const dailyUntil: unknown = Reflect.get(value, "dailyUntil");
    return {
      ...(typeof hourlyUntil === "number" ? { hourlyUntil } : {}),
      ...(typeof dailyUntil === "number" ? { dailyUntil } : {}),
    };
  }

  /** Records how far the roll-ups are. */
  async setRollupState(state: RollupState): Promise<void> {
    await commitWithRetry(
      () => this.#kv.atomic().set([...this.#root, "rollup"], state),
      this.#clock,
    );
  }

  /**
   * Deletes every period of `tier` that started before `cutoff` - whole ones and ones a crashed
   * writer left - and nothing else: each is unmarked first (readers stop using it), then its
   * shards go, then its index entry.
   *
   * @returns the periods deleted
   */
  async deleteBefore(tier: Tier, cutoff: number, signal?: AbortSignal): Promise<number> {
    const prefix = [...this.#root, tier, "index"];
    const doomed: { t: number; entry: Deno.KvEntry<PeriodEntry> }[] = [];
    for await (
      const entry of this.#kv.list<PeriodEntry>({ start: prefix, end: [...prefix, cutoff] })
    ) {
      const t = entry.key.at(-1);
      if (typeof t === "number") doomed.push({ t, entry });
    }
    if (tier === "daily" && doomed.length > 0) await this.#promoteFirstKept(tier, cutoff, signal);
    for (const { t, entry } of doomed) {
      signal?.throwIfAborted();
      const parsed = parseEntry(entry.value);
      if (parsed?.whole === true) {
        await commitWithRetry(
          () => this.#kv.atomic().set(entry.key, { ...parsed, whole: false }),
          this.#clock,
        );
      }
      const shards = await this.shardsOf(tier, t);
      await commitInBatches(
        this.#kv,
        [
          ...shards.map((shard) => ({ key: this.#key(tier, "data", shard, t) })),
          { key: this.#key(tier, "shards", t) },
          { key: entry.key },
        ],
        signal,
        this.#clock,
      );
    }
    return doomed.length;
  }

  /**
   * Rewrites the first period kept at `cutoff` as keyframes when its segment began before it, so
   * deleting what it was written against leaves it (and the deltas after it) readable. The
   * records are the same, so a reader sees them whichever value it reads. Daily bars only: a
   * year's window reads back to the oldest day kept; no reader of the other tiers reaches the
   * segment retention cuts (see `SEGMENT_MS`).
   */
  async #promoteFirstKept(tier: "daily", cutoff: number, signal?: AbortSignal): Promise<void> {
    const first = (await this.periods(tier, cutoff, Infinity))[0];
    if (first === undefined || segmentStart(tier, first) >= cutoff) return;
    const byShard = await this.#decodedPeriod(
      tier,
      first,
      (shard, times) => this.#barSeries(tier, shard, times),
    );
    const writes = [...byShard].map(([shard, bars]) => ({
      key: this.#key(tier, "data", shard, first),
      value: encodeBars(bars, PERIOD_MINUTES[tier]),
    }));
    await commitInBatches(this.#kv, writes, signal, this.#clock);
  }

  /** The running volumes' head: which generation is published. */
  async volumesHead(): Promise<VolumesHead | undefined> {
    return (await this.#volumes.head())?.head;
  }

  /** The running volumes as last published, with their head. */
  async volumes(): Promise<{ head: VolumesHead; volumes: Map<number, Volume> } | undefined> {
    const published = await this.#volumes.head();
    if (published === undefined) return undefined;
    const volumes = new Map<number, Volume>();
    for await (const entry of this.#volumes.list(published.generation)) {
      if (!(entry.value instanceof Uint8Array)) continue;
      for (const volume of decodeVolumes(entry.value)) volumes.set(volume.id, volume);
    }
    return { head: published.head, volumes };
  }

  /**
   * Publishes `volumes` as the generation `head.until` (`src/kv/generations.ts`): its shards
   * first, then the head; every other generation goes.
   */
  async writeVolumes(head: VolumesHead, volumes: readonly Volume[]): Promise<void> {
    const generation = head.until;
    const shards = groupByShard(volumes, SHARD_SPAN.raw);
    await this.#volumes.write(
      generation,
      [...shards].map(([shard, group]) => [[shard], encodeVolumes(group)] as const),
    );
    await commitWithRetry(
      () => this.#volumes.publish(this.#kv.atomic(), { generation, head }),
      this.#clock,
    );
    await this.#volumes.prune([generation]);
  }

  #key(tier: Tier, kind: "index" | "shards" | "data", ...rest: number[]): Deno.KvKey {
    return [...this.#root, tier, kind, ...rest];
  }
}

function parseEntry(value: unknown): PeriodEntry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const whole: unknown = Reflect.get(value, "whole");
  const ids: unknown = Reflect.get(value, "ids");
  const shards: unknown = Reflect.get(value, "shards");
  return typeof whole === "boolean" && typeof ids === "number" && typeof shards === "number"
    ? { whole, ids, shards }
    : undefined;
}

/** The volumes' published head, as `GenerationStore` keeps it. */
interface VolumesGeneration {
  readonly generation: number;
  readonly head: VolumesHead;
}

function parseVolumesHead(value: unknown): VolumesGeneration | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const generation: unknown = Reflect.get(value, "generation");
  const head: unknown = Reflect.get(value, "head");
  if (typeof generation !== "number" || typeof head !== "object" || head === null) {
    return undefined;
  }
  const until: unknown = Reflect.get(head, "until");
  const covered: unknown = Reflect.get(head, "covered");
  return typeof until === "number" && typeof covered === "number"
    ? { generation, head: { until, covered } }
    : undefined;
}
