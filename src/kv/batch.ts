/**
 * Many KV writes as a few atomic commits, each within Deno KV's limits on one atomic operation
 * (1,000 mutations, 800 KiB of keys and values, 80 KiB of keys), with room to spare. Each commit
 * is atomic, the whole is not: a store that needs all-or-nothing publishes what it wrote with a
 * last, small commit (an index entry readers trust) once every batch is in.
 *
 * @module
 */

import { type Clock, systemClock } from "../async/clock.ts";
import { isLockedError } from "./conflict.ts";
import { kvValueSizeBound } from "./limits.ts";

/** One write: a set, or a delete when `value` is absent. */
export interface KvWrite {
  readonly key: Deno.KvKey;
  readonly value?: unknown;
}

/** Mutations per commit: half of KV's 1,000. */
export const BATCH_MUTATIONS = 500;
/** Bytes (keys and values) per commit: about half of KV's 819,200. */
export const BATCH_BYTES = 400_000;
/** Key bytes per commit: half of KV's 81,920. */
export const BATCH_KEY_BYTES = 40_000;
/** Attempts of one commit against "database is locked" (several processes on one file). */
const ATTEMPTS = 5;

/** A bound on a key's serialized size: each part's bytes and a few of framing. */
export function keySizeBound(key: Deno.KvKey): number {
  let bytes = 0;
  for (const part of key) {
    bytes += 3 + (typeof part === "string" ? part.length * 3 : 9);
  }
  return bytes;
}

/** `writes` split into batches that each fit one commit, in order. */
export function batches(writes: readonly KvWrite[]): KvWrite[][] {
  const out: KvWrite[][] = [];
  let batch: KvWrite[] = [];
  let bytes = 0;
  let keyBytes = 0;
  for (const write of writes) {
    const keySize = keySizeBound(write.key);
    const size = keySize + (write.value === undefined ? 0 : kvValueSizeBound(write.value));
    const full = batch.length >= BATCH_MUTATIONS || bytes + size > BATCH_BYTES ||
      keyBytes + keySize > BATCH_KEY_BYTES;
    if (batch.length > 0 && full) {
      out.push(batch);
      batch = [];
      bytes = 0;
      keyBytes = 0;
    }
    batch.push(write);
    bytes += size;
    keyBytes += keySize;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

/**
 * Commits `writes` in batches ({@linkcode batches}), one after the other; stops when `signal`
 * aborts (throwing its reason). A commit that meets "database is locked" is tried again.
 *
 * @returns the number of commits made
 */
export async function commitInBatches(
  kv: Deno.Kv,
  writes: readonly KvWrite[],
  signal?: AbortSignal,
  clock: Clock = systemClock,
): Promise<number> {
  let commits = 0;
  for (const batch of batches(writes)) {
    signal?.throwIfAborted();
    await commitWithRetry(() => {
      const op = kv.atomic();
      for (const write of batch) {
        if (write.value === undefined) op.delete(write.key);
        else op.set(write.key, write.value);
      }
      return op;
    }, clock);
    commits++;
  }
  return commits;
}

/**
 * Commits the operation `build` makes, building it again after a "database is locked" (another
 * process held the write lock). A failed check is not retried: the result says `ok: false`.
 */
export async function commitWithRetry(
  build: () => Deno.AtomicOperation,
  clock: Clock = systemClock,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (let attempt = 1;; attempt++) {
    try {
      return await build().commit();
    } catch (error) {
      if (!isLockedError(error) || attempt >= ATTEMPTS) throw error;
      await clock.sleep(5 * 2 ** attempt);
    }
  }
}
