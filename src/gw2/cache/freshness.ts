/**
 * Freshness of cached entries. KV's `expireIn` is only the earliest deletion time (an expired
 * row can stay readable for a minute or more), so every value carries its `fetchedAt` and is
 * judged on read against a policy: fresh within `ttlMs`, servable as stale (only when upstream
 * fails) for `staleForMs` more, dead after that.
 *
 * @module
 */

import type { Freshness } from "../types.ts";

export type { Freshness };

/** What an entry of a given age may be used for. */
export type EntryState = "fresh" | "stale" | "dead";

/**
 * How far in the future a `fetchedAt` may lie and still be trusted: another instance's clock
 * running slightly ahead of ours. Such an entry counts as age 0.
 */
export const MAX_FUTURE_MS = 1000;

/**
 * Classifies an entry fetched at `fetchedAt`. An entry from further in the future than
 * {@linkcode MAX_FUTURE_MS} was stamped by a clock running well ahead of ours: it is never
 * fresh (so it is fetched again and overwritten with our stamp), only servable when upstream
 * fails - and not even that when the policy allows no stale service. So no entry stays fresh
 * for more than `ttlMs + MAX_FUTURE_MS` of the reader's clock, whoever wrote it.
 */
export function entryState(fetchedAt: number, now: number, policy: Freshness): EntryState {
  if (fetchedAt - now > MAX_FUTURE_MS) return policy.staleForMs > 0 ? "stale" : "dead";
  const age = entryAge(fetchedAt, now);
  if (age < policy.ttlMs) return "fresh";
  return age < policy.ttlMs + policy.staleForMs ? "stale" : "dead";
}

/**
 * What a cached entry may do for a reader now: `answer` (fresh), `fallback` (serve it only if
 * upstream fails: expired but inside its stale window, or fresh but due for reading ahead), or
 * `none` (dead). A reader that refreshes ahead (the background jobs', `refreshAheadMs` > 0)
 * re-reads a fresh entry that would expire within that time, keeping it as the fallback.
 *
 * @example
 * ```ts
 * readVerdict(entry.fetchedAt, clock.now(), FRESHNESS.items); // "answer" within a day
 * ```
 */
export function readVerdict(
  fetchedAt: number,
  now: number,
  policy: Freshness,
  refreshAheadMs = 0,
): "answer" | "fallback" | "none" {
  const state = entryState(fetchedAt, now, policy);
  if (state === "dead") return "none";
  if (state === "stale") return "fallback";
  const due = refreshAheadMs > 0 && entryState(fetchedAt, now + refreshAheadMs, policy) !== "fresh";
  return due ? "fallback" : "answer";
}

/** The age of an entry in milliseconds, never negative. */
export function entryAge(fetchedAt: number, now: number): number {
  return Math.max(0, now - fetchedAt);
}

/** The `expireIn` to write with an entry: KV may drop it once it can no longer be served. */
export function retentionMs(policy: Freshness): number {
  return policy.ttlMs + policy.staleForMs;
}
