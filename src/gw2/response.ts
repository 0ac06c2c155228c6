/**
 * What one upstream answer means, as pure functions over status, headers and body text: a
 * success with its JSON, a 404, or a failure of the taxonomy in `errors.ts` together with
 * whether it is worth retrying and when. Also the retry schedule. Kept apart from the HTTP
 * exchange so every rule is tested without a network.
 *
 * @module
 */

import {
  type Gw2Failure,
  Gw2KeyRejectedError,
  Gw2RateLimitedError,
  Gw2ScopeMissingError,
  Gw2UpstreamError,
} from "./errors.ts";

/** The parts of an HTTP answer that decide its meaning. */
export interface RawAnswer {
  readonly status: number;
  /** `Content-Type`, lower-cased; empty when absent. */
  readonly contentType: string;
  readonly body: string;
  /** `Retry-After`, when sent. */
  readonly retryAfter: string | null;
  /** `X-Page-Total` of a paged read (`page=`), when sent. */
  readonly pageTotal?: string | null;
  /** `X-Result-Total` (the collection's size), when sent. */
  readonly resultTotal?: string | null;
}

/** The meaning of one answer. */
export type Classified =
  | {
    readonly kind: "ok";
    readonly status: number;
    readonly json: unknown;
    /** Pages of the collection, from `X-Page-Total` (paged reads only). */
    readonly pageTotal?: number;
    /** Records of the collection, from `X-Result-Total` (paged reads only). */
    readonly resultTotal?: number;
  }
  | {
    readonly kind: "not_found";
    /** True for `{"text":"all ids provided are invalid"}` (a bulk read where no id exists). */
    readonly allIdsInvalid: boolean;
  }
  | {
    readonly kind: "failure";
    readonly error: Gw2Failure;
    readonly retry: boolean;
    /** Upstream's own wait hint (`Retry-After`), when it gave one. */
    readonly retryAfterMs?: number;
  };

/** A count header (`X-Page-Total`, `X-Result-Total`) as a number; `undefined` unless digits. */
function headerCount(value: string | null | undefined): number | undefined {
  const text = value?.trim() ?? "";
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/** Texts of 400 answers that GW2 gives for transient backend trouble (worth a retry). */
const TRANSIENT_400 = new Set(["errbaddata", "errinternal", "errtimeout", "unknown error"]);

/**
 * Classifies an answer.
 *
 * @param answer status, content type, body and `Retry-After`
 * @param fallbackScope the scope to name on a 403 whose body cannot be read
 * @param now epoch ms, to resolve a `Retry-After` date
 */
export function classifyAnswer(answer: RawAnswer, fallbackScope: string, now: number): Classified {
  const { status } = answer;
  if (status >= 200 && status < 300) {
    const json = parseJson(answer);
    if (json === undefined) return failure(new Gw2UpstreamError("malformed", status), false);
    const pageTotal = headerCount(answer.pageTotal);
    const resultTotal = pageTotal === undefined ? undefined : headerCount(answer.resultTotal);
    return {
      kind: "ok",
      status,
      json: json.value,
      ...(pageTotal === undefined ? {} : { pageTotal }),
      ...(resultTotal === undefined ? {} : { resultTotal }),
    };
  }
  const text = errorText(answer);
  if (status === 404) {
    return { kind: "not_found", allIdsInvalid: /^all ids provided are invalid/i.test(text ?? "") };
  }
  if (status === 401) return failure(new Gw2KeyRejectedError(), false);
  if (status === 403) return failure(forbidden(text, fallbackScope), false);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(answer.retryAfter, now);
    return failure(new Gw2RateLimitedError(retryAfterMs ?? 1000), true, retryAfterMs);
  }
  if (status === 503 && isHtml(answer)) {
    return failure(new Gw2UpstreamError("disabled", 503), false);
  }
  if (status === 503 && /^api not active/i.test(text ?? "")) {
    return failure(new Gw2UpstreamError("not_active", 503), false);
  }
  if (status >= 500) return failure(new Gw2UpstreamError("server_error", status), true);
  if (status === 408) return failure(new Gw2UpstreamError("timeout", status), true);
  if (status === 400 && TRANSIENT_400.has((text ?? "").toLowerCase())) {
    return failure(new Gw2UpstreamError("server_error", status), true);
  }
  return failure(new Gw2UpstreamError("unexpected_status", status), false);
}

/**
 * The delay before retry number `retry` (1-based): exponential from `baseMs`, capped at
 * `capMs`, with "equal jitter" (between half and all of the step) so instances that failed
 * together do not retry together.
 *
 * @example
 * ```ts
 * backoffMs(1, () => 0); // 125
 * backoffMs(3, () => 0.999); // ~ 1000
 * ```
 */
export function backoffMs(retry: number, random: () => number, baseMs = 250, capMs = 8000): number {
  const step = Math.min(capMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date); `undefined` when unusable. */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function forbidden(text: string | undefined, fallbackScope: string): Gw2Failure {
  const scope = /^requires scope (\w+)/i.exec(text ?? "")?.[1] ??
    /^requires at least one scope from (\w+)/i.exec(text ?? "")?.[1];
  if (scope !== undefined) return new Gw2ScopeMissingError(scope.toLowerCase());
  // Older API generations answered 403 for a bad or missing key.
  if (/invalid (key|access token)|requires authentication/i.test(text ?? "")) {
    return new Gw2KeyRejectedError();
  }
  return new Gw2ScopeMissingError(fallbackScope);
}

function failure(error: Gw2Failure, retry: boolean, retryAfterMs?: number): Classified {
  return retryAfterMs === undefined
    ? { kind: "failure", error, retry }
    : { kind: "failure", error, retry, retryAfterMs };
}

function isHtml(answer: RawAnswer): boolean {
  return answer.contentType.includes("html") || answer.body.trimStart().startsWith("<");
}

/** The body as JSON, boxed so that a JSON `null` is distinguishable from "not JSON". */
function parseJson(answer: RawAnswer): { value: unknown } | undefined {
  if (isHtml(answer)) return undefined;
  try {
    return { value: JSON.parse(answer.body) };
  } catch {
    return undefined;
  }
}

/** The `text` (or `error`) field of a JSON error body. */
function errorText(answer: RawAnswer): string | undefined {
  const json = parseJson(answer)?.value;
  if (typeof json !== "object" || json === null) return undefined;
  const text: unknown = Reflect.get(json, "text") ?? Reflect.get(json, "error");
  return typeof text === "string" ? text.trim() : undefined;
}

/**
 * True when a failure may be papered over with an expired cache entry (stale-if-error): the
 * budget ran out, upstream broke, or our own storage stopped answering. A rejected key, a
 * missing scope or an unknown id are answers, not outages, and are never hidden behind old data.
 */
export function canServeStale(error: Gw2Failure): boolean {
  return error.kind === "rate_limited" || error.kind === "upstream" || error.kind === "storage";
}
