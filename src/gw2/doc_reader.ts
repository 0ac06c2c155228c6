/**
 * Reads of whole documents (public lists, recipe searches, account reads): fresh from the KV
 * document cache when possible, else one upstream request shared by every concurrent caller of
 * the same document (single flight), validated, cached, and — when upstream fails and the
 * endpoint allows it — answered from the expired entry with its age.
 *
 * @module
 */

import type { DocCache } from "../kv/doc_cache.ts";
import { entryAge, entryState, retentionMs } from "../kv/freshness.ts";
import type { ReaderDeps } from "./bulk_reader.ts";
import { type DocEndpoint, parseWith } from "./endpoints.ts";
import { Gw2NotFoundError, Gw2UpstreamError, isGw2Failure } from "./errors.ts";
import { canServeStale } from "./response.ts";
import type { UpstreamRequest } from "./transport.ts";
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
}

/** Reads one document endpoint through cache, single flight and upstream. */
export class DocReader<T> {
  readonly #endpoint: DocEndpoint<T>;
  readonly #options: DocReaderOptions;
  readonly #parse: (value: unknown) => T | undefined;
  readonly #flights = new Map<string, Promise<Fresh<T>>>();

  /** @param endpoint the endpoint row; @param options shared dependencies */
  constructor(endpoint: DocEndpoint<T>, options: DocReaderOptions) {
    this.#endpoint = endpoint;
    this.#options = options;
    this.#parse = parseWith(endpoint.schema);
  }

  /** Reads the document, joining an identical read already in flight. */
  read(request: DocRequest): Promise<Fresh<T>> {
    // In-memory only; for account reads the key part is the HMAC of the player's key.
    const flightId = JSON.stringify(request.cacheKey);
    const inFlight = this.#flights.get(flightId);
    if (inFlight !== undefined) {
      this.#options.counters.add("coalescedJoins");
      return inFlight;
    }
    const flight = this.#load(request).finally(() => this.#flights.delete(flightId));
    this.#flights.set(flightId, flight);
    return flight;
  }

  async #load(request: DocRequest): Promise<Fresh<T>> {
    const { clock, counters, docs, log, transport } = this.#options;
    const { endpoint, freshness, scope } = this.#endpoint;
    const cached = await docs.get(request.cacheKey, this.#parse);
    const now = clock.now();
    const state = cached === undefined ? "dead" : entryState(cached.fetchedAt, now, freshness);
    // A background reader re-reads what would expire soon, keeping a fresh entry as fallback.
    const ahead = cached === undefined || state !== "fresh"
      ? state
      : entryState(cached.fetchedAt, now + this.#options.refreshAheadMs, freshness);
    if (cached !== undefined && ahead === "fresh") {
      counters.add("cacheHits");
      log.debug("gw2 read", { endpoint, hit: 1, miss: 0, stale: 0 });
      return { value: cached.value };
    }
    counters.add("cacheMisses");
    // Past its retention an entry must not linger (account reads: the 5-minute promise).
    if (cached !== undefined && state === "dead") await docs.delete(request.cacheKey);
    try {
      const answer = await transport.request({
        endpoint,
        path: request.path,
        ...(request.query === undefined ? {} : { query: request.query }),
        ...(request.key === undefined ? {} : { key: request.key }),
        fallbackScope: scope,
      });
      if (answer.kind === "not_found") throw new Gw2NotFoundError([], request.what);
      const value = this.#parse(answer.json);
      if (value === undefined) throw new Gw2UpstreamError("malformed", answer.status);
      await docs.put(request.cacheKey, value, clock.now(), retentionMs(freshness));
      log.debug("gw2 read", { endpoint, hit: 0, miss: 1, stale: 0 });
      return { value };
    } catch (error) {
      if (cached === undefined || state === "dead" || !isGw2Failure(error)) throw error;
      if (!canServeStale(error)) throw error;
      counters.add("staleServes");
      const staleAgeMs = entryAge(cached.fetchedAt, clock.now());
      log.debug("gw2 read", { endpoint, hit: 0, miss: 1, stale: 1, staleAgeMs });
      return { value: cached.value, staleAgeMs };
    }
  }
}
