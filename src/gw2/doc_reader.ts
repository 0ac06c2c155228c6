/**
 * Reads of whole documents (public lists, recipe searches, account reads): fresh from the KV
 * document cache when possible, else one upstream request shared by every concurrent caller of
 * the same document (single flight, bounded by the latest of their deadlines), validated,
 * cached, and - when upstream fails or a caller's deadline passes, and the endpoint allows it -
 * answered from the expired entry with its age.
 *
 * @module
 */

import { type Deadline, unlessAborted } from "../async/deadline.ts";
import type { DocCache } from "./cache/doc_cache.ts";
import { entryAge, readVerdict, retentionMs } from "./cache/freshness.ts";
import type { ReaderDeps } from "./bulk_reader.ts";
import { type DocEndpoint, parseWith } from "./endpoints.ts";
import { Gw2NotFoundError, Gw2UpstreamError, isGw2Failure } from "./errors.ts";
import { canServeStale } from "./response.ts";
import { SharedWork, type Waiter } from "./shared_work.ts";
import type { UpstreamAnswer, UpstreamRequest } from "./transport.ts";
import type { Fresh } from "./types.ts";

/** Options of {@linkcode DocReader}. */
export interface DocReaderOptions extends ReaderDeps {
  readonly docs: DocCache;
}

/** What one read needs besides the endpoint row. */
export interface DocRequest {
  /** Where the document lives in KV. */
  readonly cacheKey: Deno.KvKey;
  /** The concrete path, URL-encoded. */
  readonly path: string;
  readonly query?: UpstreamRequest["query"];
  /** The player's key (authenticated endpoints only). */
  readonly key?: string;
  /** Noun for a 404, e.g. "character". */
  readonly what: string;
  /** Read every page of the collection (see the `DOCS` rows' `paged`), at most this many. */
  readonly maxPages?: number;
}

/** GW2's largest `page_size`: a paged document is read 200 records a request. */
const PAGE_SIZE = 200;

/** One read in flight, shared by every concurrent caller of the same document. */
interface Flight<T> {
  readonly promise: Promise<Fresh<T>>;
  readonly work: SharedWork;
  /** The expired entry's answer, once the cache read found one still inside its stale window. */
  readonly stale: { fallback?: () => Fresh<T> };
}

/** Reads one document endpoint through cache, single flight and upstream. */
export class DocReader<T> {
  readonly #endpoint: DocEndpoint<T>;
  readonly #options: DocReaderOptions;
  readonly #parse: (value: unknown) => T | undefined;
  readonly #flights = new Map<string, Flight<T>>();

  /** @param endpoint the endpoint row; @param options shared dependencies */
  constructor(endpoint: DocEndpoint<T>, options: DocReaderOptions) {
    this.#endpoint = endpoint;
    this.#options = options;
    this.#parse = parseWith(endpoint.schema);
  }

  /**
   * Reads the document, joining an identical read already in flight. With a deadline, a caller
   * still waiting when it passes gets the expired entry if there is one, else a timeout; the
   * shared read goes on while anyone else waits for it.
   */
  read(request: DocRequest, deadline?: Deadline): Promise<Fresh<T>> {
    // In-memory only; for account reads the key part is the HMAC of the player's key.
    const flightId = JSON.stringify(request.cacheKey);
    let flight = this.#flights.get(flightId);
    if (flight === undefined) flight = this.#start(flightId, request);
    else this.#options.counters.add("coalescedJoins");
    const waiter: Waiter = { deadline };
    flight.work.join(waiter);
    return deadline === undefined
      ? flight.promise
      : this.#within(flightId, flight, waiter, deadline);
  }

  #start(flightId: string, request: DocRequest): Flight<T> {
    const work = new SharedWork();
    const stale: Flight<T>["stale"] = {};
    const promise = this.#load(request, work, stale).finally(() => {
      if (this.#flights.get(flightId)?.promise === promise) this.#flights.delete(flightId);
    });
    // A rejection is observed by the callers; this keeps one nobody waits for from crashing.
    promise.catch(() => undefined);
    const flight = { promise, work, stale };
    this.#flights.set(flightId, flight);
    return flight;
  }

  async #within(
    flightId: string,
    flight: Flight<T>,
    waiter: Waiter,
    deadline: Deadline,
  ): Promise<Fresh<T>> {
    const settled = await unlessAborted(flight.promise, deadline.signal);
    if (settled !== undefined) return settled.value;
    // Abandoned: a later caller must start afresh rather than join a read being cancelled.
    if (flight.work.leave(waiter) && this.#flights.get(flightId) === flight) {
      this.#flights.delete(flightId);
    }
    if (flight.stale.fallback !== undefined) return flight.stale.fallback();
    throw new Gw2UpstreamError("timeout");
  }

  async #load(request: DocRequest, work: SharedWork, stale: Flight<T>["stale"]): Promise<Fresh<T>> {
    const { clock, counters, docs, log, transport } = this.#options;
    const { endpoint, freshness, scope } = this.#endpoint;
    const cached = await docs.get(request.cacheKey, this.#parse);
    const verdict = cached === undefined
      ? "none"
      : readVerdict(cached.fetchedAt, clock.now(), freshness, this.#options.refreshAheadMs);
    if (cached !== undefined && verdict === "answer") {
      counters.add("cacheHits");
      log.debug("gw2 read", { endpoint, hit: 1, miss: 0, stale: 0 });
      return { value: cached.value };
    }
    counters.add("cacheMisses");
    // Past its retention an entry must not linger (account reads: the 5-minute promise).
    if (cached !== undefined && verdict === "none") await docs.delete(request.cacheKey);
    // Expired but inside its stale window, or fresh but due for reading ahead: the fallback.
    if (cached !== undefined && verdict === "fallback") {
      stale.fallback = () => {
        counters.add("staleServes");
        const staleAgeMs = entryAge(cached.fetchedAt, clock.now());
        log.debug("gw2 read", { endpoint, hit: 0, miss: 1, stale: 1, staleAgeMs });
        return { value: cached.value, staleAgeMs };
      };
    }
    try {
      const send = (query: UpstreamRequest["query"] = []) =>
        transport.request({
          endpoint,
          path: request.path,
          query: [...(request.query ?? []), ...query],
          ...(request.key === undefined ? {} : { key: request.key }),
          ...(this.#endpoint.maxBytes === undefined ? {} : { maxBytes: this.#endpoint.maxBytes }),
          fallbackScope: scope,
        }, work);
      const answer = request.maxPages === undefined
        ? await send()
        : await this.#pages(send, request.maxPages);
      if (answer.kind === "not_found") throw new Gw2NotFoundError([], request.what);
      const kept = this.#endpoint.fromAnswer?.(answer) ?? answer.json;
      const value = this.#parse(kept);
      if (value === undefined) throw new Gw2UpstreamError("malformed", answer.status);
      await docs.put(request.cacheKey, value, clock.now(), retentionMs(freshness));
      log.debug("gw2 read", { endpoint, hit: 0, miss: 1, stale: 0 });
      return { value };
    } catch (error) {
      if (stale.fallback === undefined || !isGw2Failure(error) || !canServeStale(error)) {
        throw error;
      }
      return stale.fallback();
    }
  }

  /**
   * Every page of a collection as one answer: the first page tells the count, the others (up to
   * `maxPages`) are asked at once. The records end at the first short or empty page, and a page
   * past the end (upstream's 400) ends them too: a page count can lie. A first page answered 400
   * is an empty collection.
   */
  async #pages(
    send: (query: UpstreamRequest["query"]) => Promise<UpstreamAnswer>,
    maxPages: number,
  ): Promise<UpstreamAnswer> {
    // A page past the end is upstream's 400 ("page out of range"): past the last page, or the
    // first page of an empty collection, which some list endpoints answer so instead of `[]`.
    const page = (index: number) =>
      send([["page", String(index)], ["page_size", String(PAGE_SIZE)]]).catch(
        (error: unknown) => {
          if (error instanceof Gw2UpstreamError && error.status === 400) return undefined;
          throw error;
        },
      );
    const first = await page(0) ?? { kind: "ok" as const, status: 200, json: [], pageTotal: 0 };
    if (first.kind === "not_found" || !Array.isArray(first.json)) return first;
    const count = Math.min(maxPages, first.pageTotal ?? 1);
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, count - 1) }, (_, index) => page(index + 1)),
    );
    const records: unknown[] = [];
    for (const answer of [first, ...rest]) {
      if (answer === undefined || answer.kind !== "ok" || !Array.isArray(answer.json)) break;
      records.push(...answer.json);
      if (answer.json.length < PAGE_SIZE) break;
    }
    return { ...first, json: records };
  }
}
