/**
 * The secret behind the cache identity of players' GW2 keys: 32 random bytes, generated once
 * and kept in KV, so every instance on the same KV hashes a key to the same identity and shares
 * its account cache entries - across restarts and MCP token rotations alike. Two instances
 * starting together race through an atomic check-and-set on the entry's versionstamp: one
 * write wins and every loser reads the winner's bytes. The entry never expires; deleting it
 * rotates the secret (orphaning at most five minutes of account entries). Each KV call is
 * bounded by `timeout.ts`, so a stalled database fails the load (and the client falls back to a
 * process-local secret) instead of holding a tool call past its deadline.
 *
 * @module
 */

import type { Clock } from "../../async/clock.ts";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../../kv/timeout.ts";
import { conflictPauseMs, isLockedError } from "../../kv/conflict.ts";

/** Length of the secret in bytes (the HMAC-SHA-256 block-size guidance: at least 32). */
export const KEY_SECRET_BYTES = 32;

/** Options of {@linkcode loadKeySecret}. */
export interface KeySecretOptions {
  readonly kv: Deno.Kv;
  /** Where the secret lives (`Gw2Keys.keySecret()`). */
  readonly key: Deno.KvKey;
  /** For the pause after a lost race or a locked database. */
  readonly clock: Clock;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** Read-and-set rounds before giving up (pauses grow to 16 ms; ~100 ms in all). @default 10 */
  readonly maxAttempts?: number;
  /** The bound of each KV call; past it the load rejects with a `KvTimeoutError`. */
  readonly timeout?: KvTimeout;
}

/**
 * Reads the shared secret, creating it when absent (or unusable) with a check-and-set that only
 * one concurrent creator can win.
 *
 * @example
 * ```ts
 * const secret = await loadKeySecret({ kv, key: keys.keySecret(), clock: systemClock });
 * ```
 * @throws {Error} when KV keeps failing or contending for `maxAttempts` rounds
 * @throws {KvTimeoutError} when one KV call does not settle within `timeout`
 */
export async function loadKeySecret(options: KeySecretOptions): Promise<Uint8Array<ArrayBuffer>> {
  const { kv, key, clock } = options;
  const random = options.random ?? Math.random;
  const attempts = options.maxAttempts ?? 10;
  const timeout = options.timeout ?? DEFAULT_KV_TIMEOUT;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      const entry = await withKvTimeout(timeout, () => kv.get(key));
      if (isSecret(entry.value)) return new Uint8Array(entry.value);
      const fresh = crypto.getRandomValues(new Uint8Array(KEY_SECRET_BYTES));
      // `entry` checks absence (versionstamp null) or the unusable value it replaces.
      const result = await withKvTimeout(
        timeout,
        () => kv.atomic().check(entry).set(key, fresh).commit(),
      );
      if (result.ok) return fresh;
    } catch (error) {
      if (!isLockedError(error)) throw error;
      lastError = error;
    }
    await clock.sleep(conflictPauseMs(attempt, random));
  }
  throw new Error(
    `Cannot establish the key-hash secret in KV after ${attempts} attempts`,
    lastError === undefined ? undefined : { cause: lastError },
  );
}

function isSecret(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.byteLength === KEY_SECRET_BYTES;
}
