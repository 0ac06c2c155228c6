/**
 * The process-local layer in front of the per-record KV cache: the last entry this process read
 * from KV or wrote to it, per id, parsed, for a bounded number of ids (least recently used
 * dropped first). It holds entries, never judgements: a reader still judges each one by its own
 * `fetchedAt` on every read, and reads KV again as soon as it is not fresh, so an entry served
 * from here is one KV would have served as fresh too, and a newer entry another instance wrote
 * becomes visible here at the latest when this process's copy stops being fresh (its TTL). What
 * it saves a warm read is the KV round trip and the schema check of the stored value.
 *
 * Public records only (items, recipes, prices): account data never enters process memory.
 *
 * @module
 */

import type { RecordEntry } from "./record_cache.ts";

/** Ids a bulk endpoint's memory holds by default: a few MB of parsed records. */
export const RECORD_MEMORY_ENTRIES = 10_000;

/** A bounded, least-recently-used map of record entries by id. */
export class RecordMemory<T> {
  readonly #max: number;
  /** Insertion order is recency: the first key is the least recently used. */
  readonly #entries = new Map<number, RecordEntry<T>>();

  /** @param maxEntries the most ids held; 0 holds nothing */
  constructor(maxEntries: number = RECORD_MEMORY_ENTRIES) {
    this.#max = Math.max(0, Math.floor(maxEntries));
  }

  /** Ids held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The entry held for `id`, marked as recently used; `undefined` when none is. */
  get(id: number): RecordEntry<T> | undefined {
    const entry = this.#entries.get(id);
    if (entry !== undefined) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
    }
    return entry;
  }

  /** Holds `entry` for `id`, dropping the least recently used id when full. */
  set(id: number, entry: RecordEntry<T>): void {
    if (this.#max === 0) return;
    if (this.#entries.has(id)) this.#entries.delete(id);
    else if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(id, entry);
  }
}
