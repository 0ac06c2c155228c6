/**
 * Bulk reads by id (items, recipes, prices, order books): the coalescer registers callers' ids, one cache pass
 * per tick answers what the per-record KV cache holds fresh, and only the rest is gathered for a
 * few milliseconds and asked upstream, in requests of at most 200 ids. A 206 or a 404 "all ids
 * provided are invalid" marks the ids upstream did not return as unknown (remembered for an
 * hour). When a request fails, the ids that have an expired entry are served from it
 * (stale-if-error) and the others fail - except where the endpoint isolates the ids one failing
 * id takes down with it (order books: a huge book answers 502 for every request naming it), by
 * splitting the request until that id stands alone.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { chunk, mapWithConcurrency } from "../async/concurrency.ts";
import { entryAge, readVerdict, retentionMs } from "./cache/freshness.ts";
import type { RecordCache, RecordEntry, RecordWrite } from "./cache/record_cache.ts";
import { type MemoryWeight, RecordMemory } from "./cache/record_memory.ts";
import { describeError, type Logger } from "../log.ts";
import type { Counters } from "../metrics.ts";
import type { Deadline } from "../async/deadline.ts";
import { Coalescer, type IdOutcome, type Lookup } from "./batcher.ts";
import { type BulkEndpoint, FRESHNESS, parseWith } from "./endpoints.ts";
import { Gw2UpstreamError, isGw2Failure } from "./errors.ts";
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
  /** Coalescing window after the last caller joined; see `batcher.ts`. */
  readonly windowMs: number;
  /** The longest a batch gathers company; see `batcher.ts`. */
  readonly maxWindowMs: number;
  /** Upstream requests of one batch in flight at once. */
  readonly maxParallelRequests: number;
  /** Ids whose entries this process keeps in memory in front of KV; 0 keeps none. */
  readonly memoryEntries: number;
  /** A bound on what those entries weigh together, for records of very different sizes. */
  readonly memoryWeight?: MemoryWeight<T>;
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
  /** Reads a cached value. */
  readonly #parse: (value: unknown) => T | undefined;
  /** Reads (and, for a kept form, transforms) an upstream record. */
  readonly #parseUpstream: (value: unknown) => T | undefined;
  /** Entries this process read from KV or wrote, in front of it; see `record_memory.ts`. */
  readonly #memory: RecordMemory<T>;

  /** @param endpoint the endpoint row; @param options shared dependencies */
  constructor(endpoint: BulkEndpoint<T>, options: BulkReaderOptions<T>) {
    this.#endpoint = endpoint;
    this.#options = options;
    this.#parse = parseWith(endpoint.stored ?? endpoint.schema);
    this.#parseUpstream = parseWith(endpoint.schema);
    this.#memory = new RecordMemory(options.memoryEntries, options.memoryWeight);
    this.#coalescer = new Coalescer<T>({
      clock: options.clock,
      windowMs: options.windowMs,
      maxWindowMs: options.maxWindowMs,
      source: {
        lookup: (ids) => this.#lookup(ids),
        admit: (deadline) => options.transport.admit(deadline),
        askUpstream: (ids, deadline) => this.#askUpstream(ids, deadline),
      },
      onJoin: (count) => options.counters.add("coalescedJoins", count),
    });
  }

  /**
   * Reads `ids`, giving up at `deadline` when one is given. Ids that are not positive integers
   * cannot exist upstream and are reported missing without asking.
   */
  read(ids: readonly number[], deadline?: Deadline): Promise<BulkRead<T>> {
    // The warm path: every id fresh in this process's memory needs no coalescer, no KV, no wait.
    const held = this.#fromMemory(ids);
    if (held !== undefined) return Promise.resolve(held);
    const possible = (id: number) => Number.isSafeInteger(id) && id > 0;
    const valid = ids.filter(possible);
    if (valid.length === ids.length) return this.#coalescer.load(ids, deadline);
    const invalid = [...new Set(ids.filter((id) => !possible(id)))];
    return this.#coalescer.load(valid, deadline).then((read) => ({
      ...read,
      missingIds: [...read.missingIds, ...invalid],
    }));
  }

  /** The answer for `ids` if this process holds every one of them fresh; else `undefined`. */
  #fromMemory(ids: readonly number[]): BulkRead<T> | undefined {
    if (this.#memory.size === 0 || ids.length === 0) return undefined;
    const { clock, counters, log } = this.#options;
    const now = clock.now();
    const found: T[] = [];
    const missingIds: number[] = [];
    const seen = ids.length > 1 ? new Set<number>() : undefined;
    for (const id of ids) {
      if (seen !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      const entry = this.#memory.get(id);
      if (entry === undefined || this.#verdict(entry, now) !== "answer") return undefined;
      if (entry.found) found.push(entry.value);
      else missingIds.push(id);
    }
    const hits = found.length + missingIds.length;
    counters.add("cacheHits", hits);
    counters.add("memoryHits", hits);
    counters.add("negativeHits", missingIds.length);
    log.debug("gw2 read", { endpoint: this.#endpoint.path, ids: hits, hit: hits, miss: 0 });
    return { found, missingIds };
  }

  /**
   * The cache pass: fresh entries answer - from this process's memory when it holds them fresh,
   * else from KV; expired ones still servable, and records due for reading ahead, become
   * fallbacks.
   */
  async #lookup(ids: readonly number[]): Promise<Map<number, Lookup<T>>> {
    const { clock, counters, log, records } = this.#options;
    const known = new Map<number, Lookup<T>>();
    let now = clock.now();
    let hits = 0;
    // Held but not fresh: KV may have a newer one; served as a fallback if it has none.
    const held = new Map<number, RecordEntry<T>>();
    const unanswered: number[] = [];
    for (const id of ids) {
      const entry = this.#memory.get(id);
      if (entry !== undefined && this.#verdict(entry, now) === "answer") {
        this.#use(id, entry, "answer", known);
        hits++;
      } else {
        if (entry !== undefined) held.set(id, entry);
        unanswered.push(id);
      }
    }
    counters.add("memoryHits", hits);
    if (unanswered.length > 0) {
      const cached = await records.getMany(this.#endpoint.kind, unanswered, this.#parse);
      now = clock.now();
      for (const id of unanswered) {
        const stored = cached.get(id);
        if (stored !== undefined) this.#memory.set(id, stored);
        const entry = stored ?? held.get(id);
        if (entry === undefined) continue;
        const verdict = this.#verdict(entry, now);
        if (verdict === "answer") hits++;
        this.#use(id, entry, verdict, known);
      }
    }
    counters.add("cacheHits", hits);
    counters.add("cacheMisses", ids.length - hits);
    log.debug("gw2 read", {
      endpoint: this.#endpoint.path,
      ids: ids.length,
      hit: hits,
      miss: ids.length - hits,
    });
    return known;
  }

  /** Records what `entry` does for `id`: its answer, or its fallback if upstream fails. */
  #use(
    id: number,
    entry: RecordEntry<T>,
    verdict: "answer" | "fallback" | "none",
    known: Map<number, Lookup<T>>,
  ): void {
    const { clock, counters } = this.#options;
    if (verdict === "answer") {
      if (!entry.found) counters.add("negativeHits");
      known.set(id, {
        answer: entry.found ? { kind: "found", value: entry.value } : { kind: "missing" },
      });
    } else if (verdict === "fallback") {
      known.set(id, {
        fallback: () => {
          counters.add("staleServes");
          return staleOutcome(entry, clock.now());
        },
      });
    }
  }

  /**
   * What an entry may do now: answer (fresh), serve as the fallback (expired but servable, or
   * due for reading ahead by a background reader), or nothing (dead).
   */
  #verdict(entry: RecordEntry<T>, now: number): "answer" | "fallback" | "none" {
    // An "unknown id" marker is not read ahead: it is simply asked again once expired.
    return entry.found
      ? readVerdict(entry.fetchedAt, now, this.#endpoint.freshness, this.#options.refreshAheadMs)
      : readVerdict(entry.fetchedAt, now, FRESHNESS.unknownId);
  }

  /**
   * Upstream for ids the cache could not answer, in requests of at most 200 ids; the first
   * request's token is already spent (the batch was admitted).
   */
  async #askUpstream(
    ids: readonly number[],
    deadline: Deadline,
  ): Promise<Map<number, IdOutcome<T>>> {
    const outcomes = new Map<number, IdOutcome<T>>();
    const groups = chunk(ids, MAX_IDS_PER_REQUEST);
    const splitBudget = this.#endpoint.isolate?.maxRequests ?? 0;
    let splitRequests = 0;
    await mapWithConcurrency(groups, this.#options.maxParallelRequests, async (group, index) => {
      const budget = { left: splitBudget };
      const resolved = await this.#resolve(group, deadline, index === 0, budget);
      splitRequests += splitBudget - budget.left;
      for (const [id, outcome] of resolved) outcomes.set(id, outcome);
    });
    const failed = [...outcomes.values()].filter((outcome) => outcome.kind === "failed").length;
    this.#options.log.debug("gw2 batch", {
      endpoint: this.#endpoint.path,
      ids: ids.length,
      requests: groups.length + splitRequests,
      failed,
    });
    return outcomes;
  }

  /**
   * One request for `group`, stored and handed to the observer. When it fails with the
   * endpoint's isolating status, its halves are asked instead, recursively, while `budget`
   * lasts (see `BulkEndpoint.isolate`).
   */
  async #resolve(
    group: readonly number[],
    deadline: Deadline,
    admitted: boolean,
    budget: { left: number },
  ): Promise<Map<number, IdOutcome<T>>> {
    const outcomes = new Map<number, IdOutcome<T>>();
    try {
      const answer = await this.#request(group, deadline, admitted);
      await this.#store(answer);
      await this.#notify(answer);
      for (const id of group) {
        const value = answer.found.get(id);
        outcomes.set(id, value === undefined ? { kind: "missing" } : { kind: "found", value });
      }
      return outcomes;
    } catch (error) {
      if (!isGw2Failure(error)) throw error;
      const isolate = this.#endpoint.isolate;
      if (
        isolate === undefined || !(error instanceof Gw2UpstreamError) ||
        error.status !== isolate.status
      ) {
        for (const id of group) outcomes.set(id, { kind: "failed", error });
        return outcomes;
      }
      if (group.length > 1 && budget.left >= 2) {
        budget.left -= 2;
        const middle = Math.ceil(group.length / 2);
        const halves = await Promise.all(
          [group.slice(0, middle), group.slice(middle)].map((half) =>
            this.#resolve(half, deadline, false, budget)
          ),
        );
        return new Map(halves.flatMap((half) => [...half]));
      }
      // Alone, the id is the one upstream cannot answer: remembered as such for the record's
      // freshness. Ids left when the split ran out of requests are not known to be at fault.
      const unreadable = new Map(group.map((id) => [id, isolate.unreadable(id)] as const));
      if (group.length === 1) await this.#store({ found: unreadable, missing: [] });
      this.#options.log.warn("gw2 ids unreadable upstream", {
        endpoint: this.#endpoint.path,
        ids: group.length,
        status: error.status,
        isolated: group.length === 1,
      });
      for (const [id, value] of unreadable) outcomes.set(id, { kind: "found", value });
      return outcomes;
    }
  }

  /** One upstream request for at most 200 ids. */
  async #request(
    group: readonly number[],
    deadline: Deadline,
    admitted: boolean,
  ): Promise<ChunkAnswer<T>> {
    const { path } = this.#endpoint;
    const answer = await this.#options.transport.request(
      {
        endpoint: path,
        path,
        query: [["ids", group.join(",")], ...(this.#endpoint.query ?? [])],
        idCount: group.length,
        ...(this.#endpoint.isolate === undefined
          ? {}
          : { noRetryOn: [this.#endpoint.isolate.status] }),
      },
      deadline,
      admitted,
    );
    if (answer.kind === "not_found") {
      if (answer.allIdsInvalid) return { found: new Map(), missing: group };
      // A 404 without GW2's bulk text (a proxy's, or the 2025 spurious one): not an answer.
      throw new Gw2UpstreamError("unexpected_status", 404);
    }
    if (!Array.isArray(answer.json)) throw new Gw2UpstreamError("malformed", answer.status);
    const asked = new Set(group);
    const found = new Map<number, T>();
    for (const raw of answer.json) {
      const record = this.#parseUpstream(raw);
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
    for (const write of writes) this.#memory.set(write.id, write.entry);
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
