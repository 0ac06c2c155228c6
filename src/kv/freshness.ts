/**
 * Freshness of cached entries. KV's `expireIn` is only the earliest deletion time (an expired
 * row can stay readable for a minute or more), so every value carries its `fetchedAt` and is
 * judged on read against a policy: fresh within `ttlMs`, servable as stale (only when upstream
 * fails) for `staleForMs` more, dead after that.
 *
 * @module
 */

/** How long an entry is fresh, and how long after that it may still be served stale. */
export interface Freshness {
  readonly ttlMs: number;
  readonly staleForMs: number;
}

/** What an entry of a given age may be used for. */
export type EntryState = "fresh" | "stale" | "dead";

/**
 * Classifies an entry fetched at `fetchedAt`. An entry from the future (another instance's
 * clock runs ahead) counts as age 0.
 */
export function entryState(fetchedAt: number, now: number, policy: Freshness): EntryState {
  const age = entryAge(fetchedAt, now);
  if (age < policy.ttlMs) return "fresh";
  return age < policy.ttlMs + policy.staleForMs ? "stale" : "dead";
}

/** The age of an entry in milliseconds, never negative. */
export function entryAge(fetchedAt: number, now: number): number {
  return Math.max(0, now - fetchedAt);
}

/** The `expireIn` to write with an entry: KV may drop it once it can no longer be served. */
export function retentionMs(policy: Freshness): number {
  return policy.ttlMs + policy.staleForMs;
}
