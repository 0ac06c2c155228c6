/**
 * Bulk reads by id (items, recipes, prices): the coalescer gathers callers' ids, then one pass
 * answers the batch from the per-record KV cache and asks upstream only for what is absent or
 * expired, in requests of at most 200 ids. A 206 or a 404 "all ids provided are invalid" marks
 * the ids upstream did not return as unknown (remembered for an hour). When a request fails,
 * the ids that have an expired entry are served from it (stale-if-error) and the others fail.
 *
 * @module
 */

import type { Clock } from "../clock.ts";
import { chunk, mapWithConcurrency } from "../concurrency.ts";
import { entryAge, entryState, retentionMs } from "../kv/freshness.ts";
import type { RecordCache, RecordEntry, RecordWrite } from "../kv/record_cache.ts";
import { describeError, type Logger } from "../log.ts";
import type { Counters } from "../metrics.ts";
import { Coalescer, type IdOutcome } from "./batcher.ts";
import { type BulkEndpoint, FRESHNESS, parseWith } from "./endpoints.ts";
import { type Gw2Failure, Gw2UpstreamError, isGw2Failure } from "./errors.ts";
import { canServeStale } from "./response.ts";
import type { Transport } from "./transport.ts";
import type { BulkRead } from "./types.ts";

/** GW2 answers at most 200 ids per request. */
export const MAX_IDS_PER_REQUEST = 200;

/** What the bulk and document readers share. */
export interface ReaderDeps {
  readonly transport: Transport;
  readonly clock: Clock;
  readonly log: Logger;
  readonly counters: Counters;
  /**
   * A background reader re-reads records that would expire within this many ms (and serves
   * them, with their age, if that read fails); 0 for interactive reads.
   */
  readonly refreshAheadMs: number;
}

/** Options of {@linkcode BulkReader}. */
export interface BulkReaderOptions<T = unknown> extends ReaderDeps {
  readonly records: RecordCache;
  /** Coalescing window; see `batcher.ts`. */
  readonly windowMs: number;
  /** Upstream requests of one batch in flight at once. */
  readonly maxParallelRequests: number;
  /** Called with the records of each upstream answer once cached; see `onItemsFetched`. */
  readonly onFetched?: (records: readonly T[]) => Promise<void>;
}

/** One upstream chunk's answer, split by id. */
interface ChunkAnswer<T> {
  readonly found: ReadonlyMap<number, T>;
  readonly missing: readonly number[];
}

/** Reads one bulk endpoint through cache, coalescing and upstream. */
export class BulkReader<T extends { readonly id: number }> {
  readonly #endpoint: BulkEndpoint<T>;
  readonly #options: BulkReaderOptions<T>;
  readonly #coalescer: Coalescer<T>;
  readonly #parse: (value: unknown) => T | undefined;

  /** @param endpoint the endpoint row; @param options shared dependencies */
  constructor(endpoint: BulkEndpoint<T>, options: BulkReaderOptions<T>) {
    this.#endpoint = endpoint;
    this.#options = options;
    this.#parse = parseWith(endpoint.schema);
    this.#coalescer = new Coalescer<T>({
      clock: options.clock,
      windowMs: options.windowMs,
      resolve: (ids) => this.#resolve(ids),
      onJoin: (count) => options.counters.add("coalescedJoins", count),
    });
  }

  /**
   * Reads `ids`. Ids that are not positive integers cannot exist upstream and are reported
   * missing without asking.
   */
  read(ids: readonly number[]): Promise<BulkRead<T>> {
    const possible = (id: number) => Number.isSafeInteger(id) && id > 0;
    const valid = ids.filter(possible);
    if (valid.length === ids.length) return this.#coalescer.load(ids);
    const invalid = [...new Set(ids.filter((id) => !possible(id)))];
    return this.#coalescer.load(valid).then((read) => ({
      ...read,
      missingIds: [...read.missingIds, ...invalid],
    }));
  }

  async #resolve(ids: readonly number[]): Promise<Map<number, IdOutcome<T>>> {
    const { clock, counters, log, records } = this.#options;
    const { kind, freshness } = this.#endpoint;
    const outcomes = new Map<number, IdOutcome<T>>();
    const stale = new Map<number, RecordEntry<T>>();
    const wanted: number[] = [];
    const cached = await records.getMany(kind, ids, this.#parse);
    const now = clock.now();
    for (const id of ids) {
      const entry = cached.get(id);
      const policy = entry?.found === false ? FRESHNESS.unknownId : freshness;
      const state = entry === undefined ? "dead" : entryState(entry.fetchedAt, now, policy);
      // Reading ahead is for records; an "unknown id" marker is simply asked again once expired.
      const due = state === "fresh" && entry?.found === true &&
        entryState(entry.fetchedAt, now + this.#options.refreshAheadMs, policy) !== "fresh";
      if (due) stale.set(id, entry);
      if (entry !== undefined && state === "fresh" && !due) {
        outcomes.set(id, entry.found ? { kind: "found", value: entry.value } : { kind: "missing" });
        if (!entry.found) counters.add("negativeHits");
        continue;
      }
      if (entry !== undefined && state === "stale") stale.set(id, entry);
      wanted.push(id);
    }
    counters.add("cacheHits", ids.length - wanted.length);
    counters.add("cacheMisses", wanted.length);
    let staleServed = 0;
    const groups = chunk(wanted, MAX_IDS_PER_REQUEST);
    await mapWithConcurrency(groups, this.#options.maxParallelRequests, async (group) => {
      try {
        const answer = await this.#fetch(group);
        await this.#store(answer);
        await this.#notify(answer);
        for (const id of group) {
          const value = answer.found.get(id);
          outcomes.set(id, value === undefined ? { kind: "missing" } : { kind: "found", value });
        }
      } catch (error) {
        if (!isGw2Failure(error)) throw error;
        for (const id of group) {
          const entry = stale.get(id);
          const outcome: IdOutcome<T> = entry !== undefined && canServeStale(error)
            ? staleOutcome(entry, clock.now())
            : failedOutcome<T>(error);
          if (outcome.kind !== "failed") staleServed++;
          outcomes.set(id, outcome);
        }
      }
    });
    counters.add("staleServes", staleServed);
    log.debug("gw2 read", {
      endpoint: this.#endpoint.path,
      ids: ids.length,
      hit: ids.length - wanted.length,
      miss: wanted.length,
      stale: staleServed,
      requests: groups.length,
    });
    return outcomes;
  }

  /** One upstream request for at most 200 ids. */
  async #fetch(group: readonly number[]): Promise<ChunkAnswer<T>> {
    const { path } = this.#endpoint;
    const answer = await this.#options.transport.request({
      endpoint: path,
      path,
      query: [["ids", group.join(",")]],
      idCount: group.length,
    });
    if (answer.kind === "not_found") {
      if (answer.allIdsInvalid) return { found: new Map(), missing: group };
      // A 404 without GW2's bulk text (a proxy's, or the 2025 spurious one): not an answer.
      throw new Gw2UpstreamError("unexpected_status", 404);
    }
    if (!Array.isArray(answer.json)) throw new Gw2UpstreamError("malformed", answer.status);
    const asked = new Set(group);
    const found = new Map<number, T>();
    for (const raw of answer.json) {
      const record = this.#parse(raw);
      // One unreadable record taints the whole answer: its id cannot be told apart from "unknown".
      if (record === undefined) throw new Gw2UpstreamError("malformed", answer.status);
      if (asked.has(record.id)) found.set(record.id, record);
    }
    return { found, missing: group.filter((id) => !found.has(id)) };
  }

  async #store(answer: ChunkAnswer<T>): Promise<void> {
    const fetchedAt = this.#options.clock.now();
    const { freshness, kind } = this.#endpoint;
    const writes: RecordWrite<T>[] = [];
    for (const [id, value] of answer.found) {
      writes.push({
        id,
        entry: { fetchedAt, found: true, value },
        expireInMs: retentionMs(freshness),
      });
    }
    for (const id of answer.missing) {
      writes.push({
        id,
        entry: { fetchedAt, found: false },
        expireInMs: retentionMs(FRESHNESS.unknownId),
      });
    }
    await this.#options.records.putMany(kind, writes);
  }

  /** Hands an answer's records to the observer; its failure is logged, never the read's. */
  async #notify(answer: ChunkAnswer<T>): Promise<void> {
    const { onFetched, log } = this.#options;
    if (onFetched === undefined || answer.found.size === 0) return;
    try {
      await onFetched([...answer.found.values()]);
    } catch (error) {
      log.warn("gw2 fetch observer failed", {
        endpoint: this.#endpoint.path,
        error: describeError(error),
      });
    }
  }
}

function staleOutcome<T>(entry: RecordEntry<T>, now: number): IdOutcome<T> {
  const staleAgeMs = entryAge(entry.fetchedAt, now);
  return entry.found
    ? { kind: "found", value: entry.value, staleAgeMs }
    : { kind: "missing", staleAgeMs };
}

function failedOutcome<T>(error: Gw2Failure): IdOutcome<T> {
  return { kind: "failed", error };
}
