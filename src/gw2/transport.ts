/**
 * One upstream request, done properly: a token from the shared bucket before every attempt,
 * the pinned schema version, the player's key in the `Authorization` header (never the URL),
 * a per-attempt timeout on the injected clock, the answer classified by `response.ts`, and
 * retries with jittered exponential backoff for what is transient. A request may carry the
 * caller's deadline: every wait (the budget, the attempt, the pause before a retry) ends when it
 * passes, a wait that cannot end in time is not begun, and the request then fails with what it
 * knows (rate limited, a timeout, the last upstream error) rather than going silent. Every
 * attempt writes one JSON log line (route template, id count, status, ms, attempt, outcome, and
 * for a lost connection its cause) without the key or the URL. This is the only module of the
 * project that calls `fetch`.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { type Deadline, isExpired, RELEASED, remainingMs } from "../async/deadline.ts";
import { describeError, type Logger } from "../log.ts";
import type { Counters } from "../metrics.ts";
import type { TokenBucket } from "./token_bucket.ts";
import {
  Gw2KeyRejectedError,
  Gw2RateLimitedError,
  Gw2StorageError,
  Gw2UpstreamError,
} from "./errors.ts";
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
  /** Statuses failed at once rather than retried: the caller has its own remedy (a split). */
  readonly noRetryOn?: readonly number[];
  /**
   * A page of a collection read that a tool call may join and wait for (the recipe catalogue's
   * fill, the market sheet: `CollectionRead`): started at once, never held back by `giveWay`.
   */
  readonly joinable?: boolean;
  /**
   * The largest body read, in bytes as sent: past it the read stops (nothing more is taken off
   * the connection) and the request fails `too_large`, not retried. For reads whose size nothing
   * bounds (`gw2_api`'s: every listed path). @default unbounded
   */
  readonly maxBytes?: number;
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
  /**
   * Awaited before each attempt's token is taken (a background client's): resolves once no
   * interactive call is in flight, or after a bound, so background requests start between
   * calls rather than beside them. Not for a `joinable` page, which a call may be waiting for.
   */
  readonly giveWay?: () => Promise<void>;
}

/**
 * The least time worth giving an attempt: with less left before the deadline, a retry is not
 * begun (it would spend a token on an answer nobody can wait for) and the request fails now.
 */
export const MIN_ATTEMPT_MS = 1_000;

type Attempt =
  | { readonly answer: RawAnswer }
  | { readonly lost: "timeout" }
  | { readonly lost: "network"; readonly cause: string }
  | { readonly lost: "too_large"; readonly status: number };

/** Sends requests upstream with budget, timeout and retries. */
export class Transport {
  readonly #options: TransportOptions;

  /** @param options base URL, fetch, clock, logger, bucket, counters and limits */
  constructor(options: TransportOptions) {
    this.#options = options;
  }

  /**
   * Sends `request` until it succeeds, fails for good, runs out of retries, or runs into
   * `deadline`.
   *
   * @param admitted the first attempt's token was already taken with {@linkcode admit}
   * @returns a success (200/206 with its JSON) or a 404
   * @throws {Gw2Failure} every other outcome
   */
  async request(
    request: UpstreamRequest,
    deadline?: Deadline,
    admitted = false,
  ): Promise<UpstreamAnswer> {
    const { clock, counters, log, maxRetries, maxRateWaitMs, random } = this.#options;
    const url = this.#url(request);
    const headers = authorisedHeaders(request.key);
    for (let attempt = 1;; attempt++) {
      if (attempt > 1 || !admitted) await this.admit(deadline, request.joinable !== true);
      counters.add("upstreamRequests");
      const started = clock.now();
      const outcome = await this.#attempt(url, headers, deadline, request.maxBytes);
      const classified: Classified = "answer" in outcome
        ? classifyAnswer(outcome.answer, request.fallbackScope ?? "account", clock.now())
        : outcome.lost === "too_large"
        ? {
          kind: "failure",
          error: new Gw2UpstreamError("too_large", outcome.status),
          retry: false,
        }
        : { kind: "failure", error: new Gw2UpstreamError(outcome.lost), retry: true };
      const delay = classified.kind === "failure"
        ? classified.retryAfterMs ?? backoffMs(attempt, random)
        : 0;
      const status = "answer" in outcome
        ? outcome.answer.status
        : outcome.lost === "too_large"
        ? outcome.status
        : 0;
      const retryable = classified.kind === "failure" && classified.retry &&
        attempt <= maxRetries && request.noRetryOn?.includes(status) !== true;
      const waitBound = Math.min(maxRateWaitMs, remainingMs(deadline) - MIN_ATTEMPT_MS);
      const willRetry = retryable && delay <= waitBound;
      // Every attempt is one line: an answer at debug (chatter), a failure at info.
      log[classified.kind === "failure" ? "info" : "debug"]("gw2 upstream", {
        endpoint: request.endpoint,
        ids: request.idCount ?? 0,
        status,
        ms: clock.now() - started,
        attempt,
        outcome: outcomeLabel(classified),
        retry: willRetry,
        ...("cause" in outcome ? { cause: outcome.cause } : {}),
      });
      if (classified.kind !== "failure") return classified;
      counters.add("upstreamErrors");
      if (classified.error instanceof Gw2RateLimitedError) await this.#drainBucket();
      if (retryable && !willRetry && classified.error instanceof Gw2RateLimitedError) {
        // Upstream asked for a longer pause than the caller can wait: say when to come back.
        throw new Gw2RateLimitedError(delay);
      }
      if (!willRetry) throw classified.error;
      counters.add("upstreamRetries");
      if (!(await this.#pause(delay, deadline))) throw classified.error;
    }
  }

  /**
   * One exchange under a timer of `timeoutMs` (or the time left, if less). When the timer or
   * the deadline fires, the fetch is aborted and awaited until it has settled, so no operation
   * outlives the attempt; when the exchange ends first, the timer is cancelled.
   */
  async #attempt(
    url: string,
    headers: Headers,
    deadline: Deadline | undefined,
    maxBytes: number | undefined,
  ): Promise<Attempt> {
    const { clock, timeoutMs } = this.#options;
    const send: FetchFn = this.#options.fetch ?? ((input, init) => fetch(input, init));
    const cut = new AbortController();
    const stopTimer = new AbortController();
    const onDeadline = () => cut.abort();
    deadline?.signal.addEventListener("abort", onDeadline, { once: true });
    if (isExpired(deadline)) cut.abort();
    const timer = clock.timer(Math.min(timeoutMs, remainingMs(deadline)), stopTimer.signal)
      .then(() => cut.abort(), () => undefined);
    try {
      const response = await send(url, { headers, signal: cut.signal, redirect: "manual" });
      const body = maxBytes === undefined
        ? await response.text()
        : await readAtMost(response, maxBytes);
      if (body === undefined) return { lost: "too_large", status: response.status };
      return {
        answer: {
          status: response.status,
          contentType: (response.headers.get("content-type") ?? "").toLowerCase(),
          body,
          retryAfter: response.headers.get("retry-after"),
          pageTotal: response.headers.get("x-page-total"),
          resultTotal: response.headers.get("x-result-total"),
        },
      };
    } catch (error) {
      return cut.signal.aborted ? { lost: "timeout" } : { lost: "network", cause: cause(error) };
    } finally {
      deadline?.signal.removeEventListener("abort", onDeadline);
      stopTimer.abort(RELEASED);
      await timer;
    }
  }

  /**
   * Takes the token of one attempt, waiting for a refill only as long as the deadline leaves
   * room for an attempt after it. `request` does this before every attempt; a caller that must
   * know it has the budget before fixing what to ask (a batch still gathering ids) takes the
   * first one here and passes `admitted`. `giveWay`: first wait for the calls in flight (a
   * background client's `giveWay`), unless the request is one a call may be waiting for.
   *
   * @throws {Gw2RateLimitedError} no token within the wait allowed
   * @throws {Gw2StorageError} the budget's KV failed
   * @throws {Gw2UpstreamError} `timeout` when the deadline has passed
   */
  async admit(deadline?: Deadline, giveWay = true): Promise<void> {
    const { bucket, counters, log, maxRateWaitMs } = this.#options;
    if (isExpired(deadline)) throw new Gw2UpstreamError("timeout");
    if (giveWay && this.#options.giveWay !== undefined) {
      await this.#options.giveWay();
      if (isExpired(deadline)) throw new Gw2UpstreamError("timeout");
    }
    const maxWait = Math.max(0, Math.min(maxRateWaitMs, remainingMs(deadline) - MIN_ATTEMPT_MS));
    let taken;
    try {
      taken = await bucket.take(
        maxWait,
        () => counters.add("bucketWaits"),
        deadline?.signal,
        deadline?.owners?.bind(deadline),
      );
    } catch (error) {
      // The budget lives in KV; if KV fails, upstream cannot be asked safely.
      log.error("gw2 budget unavailable", { error: describeError(error) });
      throw new Gw2StorageError();
    }
    if (!taken.admitted) {
      counters.add("bucketRefusals");
      throw new Gw2RateLimitedError(taken.retryAfterMs);
    }
  }

  /** The pause before a retry; false when the deadline cut it short. */
  async #pause(ms: number, deadline: Deadline | undefined): Promise<boolean> {
    try {
      await this.#options.clock.sleep(ms, deadline?.signal);
      return true;
    } catch {
      return false;
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

/**
 * The body as text, or `undefined` once it is past `maxBytes` (by its `Content-Length`, or as
 * read): the rest is never taken off the connection, so an answer of any size costs at most
 * `maxBytes` (and a chunk) of memory.
 */
async function readAtMost(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get("content-length") ?? "");
  if (response.body === null) return "";
  if (declared > maxBytes) {
    await response.body.cancel();
    return undefined;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(read.value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
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

/**
 * Why a connection was lost, for the log: the error's name and message (and those of its
 * `cause`) with any URL replaced, so neither the upstream address nor a query reaches a log.
 */
function cause(error: unknown): string {
  const nested = error instanceof Error && error.cause !== undefined
    ? ` (cause: ${describeError(error.cause)})`
    : "";
  return `${describeError(error)}${nested}`.replace(/\b[a-z][a-z\d+.-]*:\/\/[^\s)]*/gi, "<url>");
}

function outcomeLabel(classified: Classified): string {
  if (classified.kind !== "failure") return classified.kind;
  const { error } = classified;
  return error instanceof Gw2UpstreamError ? error.reason : error.kind;
}
