/**
 * Staleness, shared by every tool result: a read served from an expired cache entry because
 * upstream failed says how old it is, in whole seconds, instead of passing as fresh.
 *
 * @module
 */

/** Marks a result served from an expired cache entry because upstream failed. */
export interface Staleness {
  /** Age of the oldest stale record, in whole seconds (rounded up). */
  readonly stale_age_s?: number;
}

/**
 * The staleness marker for a read: empty when fresh, otherwise the age in whole seconds
 * (at least 1, so a stale result is never reported as 0 s old).
 */
export function staleness(staleAgeMs: number | undefined): Staleness {
  if (staleAgeMs === undefined) return {};
  return { stale_age_s: Math.max(1, Math.ceil(staleAgeMs / 1000)) };
}

/**
 * The oldest of several reads' stale ages (see {@linkcode staleness}); absent when all were
 * fresh.
 *
 * @example
 * ```ts
 * staleness(oldestStaleAge(resolved.staleAgeMs, prices.staleAgeMs));
 * ```
 */
export function oldestStaleAge(...ages: (number | undefined)[]): number | undefined {
  const stale = ages.filter((age) => age !== undefined);
  return stale.length === 0 ? undefined : Math.max(...stale);
}
