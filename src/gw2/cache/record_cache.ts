/**
 * One KV entry per upstream record (an item, a recipe, a price) or per unknown id. Reads go
 * through `getMany` in groups of ten keys (KV's limit); writes go in atomic batches under KV's
 * 1000-mutation and 800 KiB limits, each record sized by a bound that never undercounts and is
 * exact at the value limit (`kvValueSizeBound`: serializing every record to size it left native
 * memory behind). A record too large for one KV value is skipped alone, and a failed commit costs
 * only its own batch. A KV failure - an error or no answer within the bound of `timeout.ts` -
 * never fails a read: it is logged and the cache behaves as empty, so upstream answers instead.
 *
 * @module
 */

import { chunk, mapWithConcurrency } from "../../async/concurrency.ts";
import { describeError as describe, type Logger } from "../../log.ts";
import type { Gw2Keys, RecordKind } from "./keys.ts";
import { GET_MANY_LIMIT, KV_VALUE_MAX_BYTES, kvValueSizeBound } from "../../kv/limits.ts";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../../kv/timeout.ts";

/** A cached record, or the memory that upstream does not know the id. */
export type RecordEntry<T> =
  | { readonly fetchedAt: number; readonly found: true; readonly value: T }
  | { readonly fetchedAt: number; readonly found: false };

/** One entry to write, with the retention KV may drop it after. */
export interface RecordWrite<T> {
  readonly id: number;
  readonly entry: RecordEntry<T>;
  readonly expireInMs: number;
}

/** Checks a stored value; `undefined` when it no longer matches (treated as absent). */
export type ValueParser<T> = (value: unknown) => T | undefined;

/** Parallel `getMany` calls per lookup: enough to hide latency, few enough to be polite. */
const READ_CONCURRENCY = 8;
/**
 * Per commit: half of KV's 1000 mutations, and its 800 KiB payload less room for the keys
 * (measured values; a record key is under 100 bytes, 500 of them under 50 KB).
 */
const COMMIT_MAX_MUTATIONS = 500;
const COMMIT_MAX_VALUE_BYTES = 700_000;

/** The per-record cache of one upstream. */
export class RecordCache {
  readonly #kv: Deno.Kv;
  readonly #keys: Gw2Keys;
  readonly #log: Logger;
  readonly #timeout: KvTimeout;

  /**
   * @param kv the shared KV; @param keys key builders; @param log for KV failures
   * @param timeout the bound of each lookup and each commit
   */
  constructor(kv: Deno.Kv, keys: Gw2Keys, log: Logger, timeout: KvTimeout = DEFAULT_KV_TIMEOUT) {
    this.#kv = kv;
    this.#keys = keys;
    this.#log = log;
    this.#timeout = timeout;
  }

  /**
   * Reads the entries of `ids` (without duplicates); ids with no usable entry are absent from
   * the result. Uses eventual consistency: a cache may lag a replica by a moment.
   */
  async getMany<T>(
    kind: RecordKind,
    ids: readonly number[],
    parse: ValueParser<T>,
  ): Promise<Map<number, RecordEntry<T>>> {
    if (ids.length === 0) return new Map();
    try {
      return await withKvTimeout(this.#timeout, async (signal) => {
        const found = new Map<number, RecordEntry<T>>();
        const groups = chunk(ids, GET_MANY_LIMIT);
        await mapWithConcurrency(groups, READ_CONCURRENCY, async (group) => {
          const entries = await this.#kv.getMany(
            group.map((id) => this.#keys.record(kind, id)),
            { consistency: "eventual" },
          );
          entries.forEach((entry, index) => {
            const parsed = parseEntry(entry.value, parse);
            const id = group[index];
            if (parsed !== undefined && id !== undefined) found.set(id, parsed);
          });
        }, { signal });
        return found;
      });
    } catch (error) {
      this.#log.warn("gw2 cache read failed", { kind, error: describe(error) });
      return new Map();
    }
  }

  /**
   * Writes entries in atomic batches. A record too large for one KV value is skipped (logged);
   * a batch whose commit fails is logged and the others are still written.
   */
  async putMany<T>(kind: RecordKind, writes: readonly RecordWrite<T>[]): Promise<void> {
    const batches: RecordWrite<T>[][] = [];
    let batch: RecordWrite<T>[] = [];
    let bytes = 0;
    for (const write of writes) {
      const size = kvValueSizeBound(write.entry);
      if (size > KV_VALUE_MAX_BYTES) {
        this.#log.warn("gw2 cache skipped an oversized record", { kind, id: write.id, size });
        continue;
      }
      if (batch.length >= COMMIT_MAX_MUTATIONS || bytes + size > COMMIT_MAX_VALUE_BYTES) {
        batches.push(batch);
        batch = [];
        bytes = 0;
      }
      batch.push(write);
      bytes += size;
    }
    if (batch.length > 0) batches.push(batch);
    for (const group of batches) {
      try {
        await withKvTimeout(this.#timeout, () => {
          const op = this.#kv.atomic();
          for (const write of group) {
            op.set(this.#keys.record(kind, write.id), write.entry, { expireIn: write.expireInMs });
          }
          return op.commit();
        });
      } catch (error) {
        this.#log.warn("gw2 cache write failed", {
          kind,
          records: group.length,
          error: describe(error),
        });
      }
    }
  }
}

function parseEntry<T>(stored: unknown, parse: ValueParser<T>): RecordEntry<T> | undefined {
  if (typeof stored !== "object" || stored === null) return undefined;
  const fetchedAt: unknown = Reflect.get(stored, "fetchedAt");
  const found: unknown = Reflect.get(stored, "found");
  if (typeof fetchedAt !== "number" || typeof found !== "boolean") return undefined;
  if (!found) return { fetchedAt, found };
  const value = parse(Reflect.get(stored, "value"));
  return value === undefined ? undefined : { fetchedAt, found, value };
}
