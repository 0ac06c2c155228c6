/**
 * One upstream request, done properly: a token from the shared bucket before every attempt,
 * the pinned schema version, the player's key in the `Authorization` header (never the URL),
 * a per-attempt timeout on the injected clock, the answer classified by `response.ts`, and
 * retries with jittered exponential backoff for what is transient. Every attempt writes one
 * JSON log line (route template, id count, status, ms, attempt, outcome) without the key.
 * This is the only module of the project that calls `fetch`.
 *
 * @module
 */

import type { Clock } from "../clock.ts";
import { describeError, type Logger } from "../log.ts";
import type { Counters } from "../metrics.ts";
import type { TokenBucket } from "../kv/token_bucket.ts";
import { Gw2KeyRejectedError, Gw2RateLimitedError, Gw2UpstreamError } from "./errors.ts";
import { backoffMs, type Classified, classifyAnswer, type RawAnswer } from "./response.ts";

/** The recipe schema with ingredients as `{type, id, count}`. */
export const SCHEMA_VERSION = "2022-03-09T02:00:00.000Z";

/** The subset of `fetch` the transport uses; `globalThis.fetch` satisfies it. */
export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

/** One logical request (the transport may send it several times). */
export interface UpstreamRequest {
  /** Route template for logs and metrics, e.g. `/v2/characters/:name/inventory`. */
  readonly endpoint: string;
  /** The concrete path, already URL-encoded, e.g. `/v2/characters/Zo%C3%AB/inventory`. */
  readonly path: string;
  /** Query parameters (never a credential); `v` is added by the transport. */
  readonly query?: readonly (readonly [string, string])[];
  /** The player's API key, for authenticated endpoints. */
  readonly key?: string;
  /** The scope to name when a 403 body cannot be read. */
  readonly fallbackScope?: string;
  /** Ids asked for, for the log line. */
  readonly idCount?: number;
}

/** A usable answer: a success or a 404 (whose meaning depends on the caller). */
export type UpstreamAnswer = Exclude<Classified, { kind: "failure" }>;

/** Options of {@linkcode Transport}. */
export interface TransportOptions {
  /** Upstream base URL without a trailing slash. */
  readonly baseUrl: string;
  /** @default globalThis.fetch */
  readonly fetch?: FetchFn;
  readonly clock: Clock;
  readonly log: Logger;
  readonly bucket: TokenBucket;
  readonly counters: Counters;
  /** Per-attempt timeout. */
  readonly timeoutMs: number;
  /** Retries after the first attempt, for transient failures. */
  readonly maxRetries: number;
  /** Longest wait for the bucket, or for a 429's `Retry-After`, before failing rate-limited. */
  readonly maxRateWaitMs: number;
  readonly random: () => number;
}

type Attempt = { readonly answer: RawAnswer } | { readonly lost: "timeout" | "network" };

/** Sends requests upstream with budget, timeout and retries. */
export class Transport {
  readonly #options: TransportOptions;

  /** @param options base URL, fetch, clock, logger, bucket, counters and limits */
  constructor(options: TransportOptions) {
    this.#options = options;
  }

  /**
   * Sends `request` until it succeeds, fails for good, or runs out of retries.
   *
   * @returns a success (200/206 with its JSON) or a 404
   * @throws {Gw2Failure} every other outcome
   */
  async request(request: UpstreamRequest): Promise<UpstreamAnswer> {
    const { clock, counters, log, maxRetries, maxRateWaitMs, random } = this.#options;
    const url = this.#url(request);
    const headers = authorisedHeaders(request.key);
    for (let attempt = 1;; attempt++) {
      await this.#spendToken();
      counters.add("upstreamRequests");
      const started = clock.now();
      const outcome = await this.#attempt(url, headers);
      const classified: Classified = "answer" in outcome
        ? classifyAnswer(outcome.answer, request.fallbackScope ?? "account", clock.now())
        : { kind: "failure", error: new Gw2UpstreamError(outcome.lost), retry: true };
      const delay = classified.kind === "failure"
        ? classified.retryAfterMs ?? backoffMs(attempt, random)
        : 0;
      const retryable = classified.kind === "failure" && classified.retry && attempt <= maxRetries;
      const willRetry = retryable && delay <= maxRateWaitMs;
      log.info("gw2 upstream", {
        endpoint: request.endpoint,
        ids: request.idCount ?? 0,
        status: "answer" in outcome ? outcome.answer.status : 0,
        ms: clock.now() - started,
        attempt,
        outcome: outcomeLabel(classified),
        retry: willRetry,
      });
      if (classified.kind !== "failure") return classified;
      counters.add("upstreamErrors");
      if (classified.error instanceof Gw2RateLimitedError) await this.#drainBucket();
      if (retryable && !willRetry && classified.error instanceof Gw2RateLimitedError) {
        // Upstream asked for a longer pause than a caller should wait: say when to come back.
        throw new Gw2RateLimitedError(delay);
      }
      if (!willRetry) throw classified.error;
      counters.add("upstreamRetries");
      await clock.sleep(delay);
    }
  }

  /** One exchange, raced against the timeout; the losing fetch is aborted and awaited. */
  async #attempt(url: string, headers: Headers): Promise<Attempt> {
    const { clock, timeoutMs } = this.#options;
    const send: FetchFn = this.#options.fetch ?? ((input, init) => fetch(input, init));
    const request = new AbortController();
    const timer = new AbortController();
    const exchange = (async (): Promise<Attempt> => {
      try {
        const response = await send(url, { headers, signal: request.signal, redirect: "manual" });
        const body = await response.text();
        return {
          answer: {
            status: response.status,
            contentType: (response.headers.get("content-type") ?? "").toLowerCase(),
            body,
            retryAfter: response.headers.get("retry-after"),
            pageTotal: response.headers.get("x-page-total"),
          },
        };
      } catch {
        return { lost: "network" };
      }
    })();
    const deadline = clock.sleep(timeoutMs, timer.signal).then(
      () => "timed_out" as const,
      () => "cancelled" as const,
    );
    const winner = await Promise.race([exchange, deadline]);
    if (winner === "timed_out") {
      request.abort();
      await exchange;
      return { lost: "timeout" };
    }
    timer.abort();
    await deadline;
    return winner === "cancelled" ? { lost: "timeout" } : winner;
  }

  async #spendToken(): Promise<void> {
    const { bucket, counters, log, maxRateWaitMs } = this.#options;
    let taken;
    try {
      taken = await bucket.take(maxRateWaitMs, () => counters.add("bucketWaits"));
    } catch (error) {
      // The budget lives in KV; if KV itself fails, upstream cannot be reached safely.
      log.error("gw2 budget unavailable", { error: describeError(error) });
      throw new Gw2UpstreamError("network");
    }
    if (!taken.admitted) {
      counters.add("bucketRefusals");
      throw new Gw2RateLimitedError(taken.retryAfterMs);
    }
  }

  async #drainBucket(): Promise<void> {
    try {
      await this.#options.bucket.drain();
    } catch (error) {
      this.#options.log.warn("gw2 budget drain failed", { error: describeError(error) });
    }
  }

  #url(request: UpstreamRequest): string {
    const query = [...(request.query ?? []), ["v", SCHEMA_VERSION] as const]
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeQueryValue(value)}`)
      .join("&");
    return `${this.#options.baseUrl}${request.path}?${query}`;
  }
}

/** Encodes a query value, keeping commas literal (`ids=1,2,3`, as GW2 documents it). */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/gi, ",");
}

/**
 * Request headers: JSON, the pinned schema, and `Authorization: Bearer <key>` when a key is
 * given. A key that cannot be a header value (empty, control characters) is rejected here,
 * before it spends a token or leaves the process.
 */
function authorisedHeaders(key: string | undefined): Headers {
  const headers = new Headers({ "accept": "application/json", "x-schema-version": SCHEMA_VERSION });
  if (key === undefined) return headers;
  if (!/^[\x21-\x7e]+$/.test(key)) throw new Gw2KeyRejectedError();
  headers.set("authorization", `Bearer ${key}`);
  return headers;
}

function outcomeLabel(classified: Classified): string {
  if (classified.kind !== "failure") return classified.kind;
  const { error } = classified;
  return error instanceof Gw2UpstreamError ? error.reason : error.kind;
}
