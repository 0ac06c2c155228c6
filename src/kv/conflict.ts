/**
 * Contention on a Deno KV file shared by several processes: SQLite throws `database is locked`
 * (rather than failing the check) when another process holds the write lock, and the writers
 * that meet it - the token bucket, the key-hash secret, the background leases - retry after a
 * short pause. With the generic KV helpers (`src/kv/`), so the client and the background jobs
 * share it.
 *
 * @module
 */

/** Jittered pause before conflict retry `attempt` (0-based): uniform in [0, 2^min(attempt, 4)) ms. */
export function conflictPauseMs(attempt: number, random: () => number): number {
  return random() * 2 ** Math.min(attempt, 4);
}

/** True for the error SQLite throws when another process holds the write lock. */
export function isLockedError(error: unknown): boolean {
  return error instanceof Error && /database is locked/i.test(error.message);
}
