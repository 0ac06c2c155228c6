/**
 * The upstream failure taxonomy. Every way a GW2 read can fail is one of these six classes;
 * the tool layer maps them to model-facing text in one place (`src/mcp/errors.ts`). Messages
 * and fields never carry the upstream URL, the player's key or a stack of upstream origin.
 *
 * @module
 */

/** Why an upstream request failed, when the failure is not one of the specific classes. */
export type UpstreamFailureReason =
  /** No answer within the per-request timeout. */
  | "timeout"
  /** The connection failed (DNS, refused, reset). */
  | "network"
  /** A 5xx answer (or 502/504 with a non-JSON body) that retries did not clear. */
  | "server_error"
  /** 503 `{"text":"API not active"}`: ArenaNet switched the endpoint off; not retried. */
  | "not_active"
  /** 503 with an HTML body: the whole API is disabled (e.g. around an expansion launch). */
  | "disabled"
  /** A 2xx body that is not JSON, is truncated, or does not match the expected shape. */
  | "malformed"
  /** A body past the bound its read set (`gw2_api`'s): not read further, not retried. */
  | "too_large"
  /** Any other unexpected status (an unexpected 4xx). */
  | "unexpected_status";

/** Base class of every GW2 upstream failure; `kind` discriminates the subclasses. */
export abstract class Gw2Error extends Error {
  /** Discriminant for exhaustive mapping. */
  abstract readonly kind: Gw2Failure["kind"];
}

/**
 * Upstream does not know what was asked for: ids of which none exist where the caller needs
 * at least one, or a resource without a numeric id (a character name).
 */
export class Gw2NotFoundError extends Gw2Error {
  readonly kind = "not_found" as const;
  /** The ids upstream does not know; empty for resources without a numeric id. */
  readonly ids: readonly number[];
  /** The kind of record, e.g. "item" or "character". */
  readonly what: string;
  /** @param ids the unknown ids; @param what the kind of record, e.g. "item" */
  constructor(ids: readonly number[], what = "record") {
    super(
      ids.length === 0
        ? `GW2 API has no such ${what}`
        : `GW2 API has no ${what} with id ${ids.join(", ")}`,
    );
    this.name = "Gw2NotFoundError";
    this.ids = ids;
    this.what = what;
  }
}

/** The shared upstream budget is exhausted (our bucket, or upstream answered 429 repeatedly). */
export class Gw2RateLimitedError extends Gw2Error {
  readonly kind = "rate_limited" as const;
  /** How long until a retry is expected to succeed, in milliseconds. */
  readonly retryAfterMs: number;
  /** @param retryAfterMs when a retry is expected to succeed */
  constructor(retryAfterMs: number) {
    super(`GW2 API rate limit reached: retry in ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = "Gw2RateLimitedError";
    this.retryAfterMs = retryAfterMs;
  }
}

/** GW2 rejected the player's API key (401 `Invalid access token`). */
export class Gw2KeyRejectedError extends Gw2Error {
  readonly kind = "key_rejected" as const;
  constructor() {
    super("GW2 API rejected the API key");
    this.name = "Gw2KeyRejectedError";
  }
}

/**
 * The player's key lacks a permission the endpoint needs (403 `requires scope X`), or several
 * that a pre-check against `/v2/tokeninfo` found missing at once.
 */
export class Gw2ScopeMissingError extends Gw2Error {
  readonly kind = "scope_missing" as const;
  /** The missing scope, e.g. `inventories` (the first, when several are missing). */
  readonly scope: string;
  /** Every missing scope known, `scope` first. */
  readonly scopes: readonly string[];
  /** @param scope the missing scope; @param more further missing scopes */
  constructor(scope: string, ...more: string[]) {
    const scopes = [scope, ...more];
    const named = scopes.map((name) => `"${name}"`).join(", ");
    super(`GW2 API key lacks the ${named} permission${scopes.length > 1 ? "s" : ""}`);
    this.name = "Gw2ScopeMissingError";
    this.scope = scope;
    this.scopes = scopes;
  }
}

/** Upstream failed in a way the caller cannot fix; `reason` says how. */
export class Gw2UpstreamError extends Gw2Error {
  readonly kind = "upstream" as const;
  readonly reason: UpstreamFailureReason;
  /** The last HTTP status seen, when there was one. */
  readonly status: number | undefined;
  /** @param reason how it failed; @param status the last HTTP status, if any */
  constructor(reason: UpstreamFailureReason, status?: number) {
    super(`GW2 API request failed: ${reason}${status === undefined ? "" : ` (HTTP ${status})`}`);
    this.name = "Gw2UpstreamError";
    this.reason = reason;
    this.status = status;
  }
}

/**
 * The server's own storage failed: Deno KV, which holds the shared upstream budget, did not
 * answer (an error, or no answer within its timeout). Without the budget upstream cannot be asked
 * safely, so the read fails closed. Nothing about GW2 is implied.
 */
export class Gw2StorageError extends Gw2Error {
  readonly kind = "storage" as const;
  constructor() {
    super("The server's storage (Deno KV) is not answering");
    this.name = "Gw2StorageError";
  }
}

/** Every concrete upstream failure. */
export type Gw2Failure =
  | Gw2NotFoundError
  | Gw2RateLimitedError
  | Gw2KeyRejectedError
  | Gw2ScopeMissingError
  | Gw2UpstreamError
  | Gw2StorageError;

/** Narrows an unknown thrown value to the taxonomy. */
export function isGw2Failure(error: unknown): error is Gw2Failure {
  return error instanceof Gw2Error;
}
