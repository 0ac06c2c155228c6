/**
 * A short lease in Deno KV, so background work runs on one instance at a time: instances that
 * start together do not all warm, several processes on one KV file do not all run the same cron
 * tick, and one crawler writes the catalogue. Taking it is a compare-and-set on the entry (as
 * the token bucket does); the expiry is in the value because KV's `expireIn` only sets the
 * earliest deletion time. The holder may take it again (a retried job); anyone may take it once
 * it has expired (its holder died).
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { isLockedError } from "../kv/conflict.ts";

/** A lease held: its key and the versionstamp to `check` in commits made under it. */
export interface Lease {
  readonly key: Deno.KvKey;
  readonly versionstamp: string;
  readonly until: number;
}

/** Who holds a lease until when, as stored. */
interface LeaseValue {
  readonly owner: string;
  readonly until: number;
}

/** Compare-and-set attempts against SQLite's "database is locked" before giving up. */
const ATTEMPTS = 4;

/**
 * Takes the lease `key` for `ttlMs` when it is free, expired, or already `owner`'s.
 *
 * @returns the lease, or `undefined` when another owner holds it (or won the race for it)
 */
export async function acquireLease(
  kv: Deno.Kv,
  key: Deno.KvKey,
  owner: string,
  ttlMs: number,
  clock: Clock,
): Promise<Lease | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      const entry = await kv.get(key);
      const now = clock.now();
      const held = parseLease(entry.value);
      if (held !== undefined && held.owner !== owner && held.until > now) return undefined;
      const value: LeaseValue = { owner, until: now + ttlMs };
      const result = await kv.atomic().check(entry).set(key, value, { expireIn: ttlMs }).commit();
      return result.ok ? { key, versionstamp: result.versionstamp, until: value.until } : undefined;
    } catch (error) {
      // Two processes on one SQLite file: the loser's commit throws instead of failing.
      if (!isLockedError(error)) throw error;
      await clock.sleep(5 * 2 ** attempt);
    }
  }
  return undefined;
}

/**
 * Runs `run` under the lease `key` and gives it back after (whatever `run` did): what `run`
 * returns, or `{leased: true}` when another owner holds the lease.
 */
export async function underLease<T>(
  kv: Deno.Kv,
  key: Deno.KvKey,
  owner: string,
  ttlMs: number,
  clock: Clock,
  run: (lease: Lease) => Promise<T>,
): Promise<T | { readonly leased: true }> {
  const lease = await acquireLease(kv, key, owner, ttlMs, clock);
  if (lease === undefined) return { leased: true };
  try {
    return await run(lease);
  } finally {
    await releaseLease(kv, lease).catch(() => undefined);
  }
}

/** Gives the lease back early, if it is still the one taken (best effort). */
export async function releaseLease(kv: Deno.Kv, lease: Lease): Promise<void> {
  await kv.atomic().check({ key: lease.key, versionstamp: lease.versionstamp }).delete(lease.key)
    .commit();
}

function parseLease(value: unknown): LeaseValue | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const owner: unknown = Reflect.get(value, "owner");
  const until: unknown = Reflect.get(value, "until");
  return typeof owner === "string" && typeof until === "number" ? { owner, until } : undefined;
}
