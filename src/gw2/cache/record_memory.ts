/**
 * The process-local layer in front of the per-record KV cache: the last entry this process read
 * from KV or wrote to it, per id, parsed, for a bounded number of ids (the least recently used
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

/**
 * Ids a bulk endpoint's memory holds by default: room for the legendary warm set (1,119 items)
 * and what agents ask for around it, at most ~2 MB of parsed records per endpoint (recipes ~840
 * bytes each, items ~490, prices ~330). Live heap costs several times its size in resident
 * memory (V8 sizes the old generation at up to ~4× what is live): 10,000 ids an endpoint were up
 * to 16 MB live (docs/performance.md, "Memory").
 */
export const RECORD_MEMORY_ENTRIES = 2_500;

/** An entry, its weight, and when it was last placed at the recent end. */
interface Slot<T> {
  readonly entry: RecordEntry<T>;
  readonly weight: number;
  placed: number;
}

/**
 * A bound on what the entries weigh together, for records whose size varies by orders of
 * magnitude (an order book holds 1 to 1,001 price levels): `weigh` says what a found record
 * weighs (a missing one weighs 1), and the memory drops its least recently used entries until
 * the sum is at most `max`.
 */
export interface MemoryWeight<T> {
  readonly max: number;
  readonly weigh: (value: T) => number;
}

/**
 * A bounded map of record entries by id, dropping the least recently used first. Recency is
 * approximate: a read moves an entry to the recent end only once it has fallen into the older
 * half. Moving it on every read would make each warm read a delete and an insert, and a map of
 * thousands of entries then keeps rebuilding its table - garbage the old generation pays for.
 */
export class RecordMemory<T> {
  readonly #max: number;
  readonly #weight: MemoryWeight<T> | undefined;
  /** Insertion order is recency: the first key is the least recently used. */
  readonly #slots = new Map<number, Slot<T>>();
  /** Counts placements at the recent end. */
  #placements = 0;
  /** What the held entries weigh together (their count without a weight bound). */
  #weighed = 0;

  /**
   * @param maxEntries the most ids held; 0 holds nothing
   * @param weight a bound on what the held entries weigh together, besides their count
   */
  constructor(maxEntries: number = RECORD_MEMORY_ENTRIES, weight?: MemoryWeight<T>) {
    this.#max = Math.max(0, Math.floor(maxEntries));
    this.#weight = weight;
  }

  /** Ids held now. */
  get size(): number {
    return this.#slots.size;
  }

  /** What the held entries weigh together (their count without a weight bound). */
  get weight(): number {
    return this.#weighed;
  }

  /** The entry held for `id`; `undefined` when none is. */
  get(id: number): RecordEntry<T> | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    if (this.#placements - slot.placed > this.#max / 2) {
      this.#slots.delete(id);
      slot.placed = ++this.#placements;
      this.#slots.set(id, slot);
    }
    return slot.entry;
  }

  /**
   * Holds `entry` for `id`, dropping the least recently used ids while the memory is over its
   * count or its weight (an entry heavier than the whole bound is not held).
   */
  set(id: number, entry: RecordEntry<T>): void {
    if (this.#max === 0) return;
    this.#drop(id);
    const weight = this.#weight === undefined || !entry.found
      ? 1
      : Math.max(1, this.#weight.weigh(entry.value));
    const maxWeight = this.#weight?.max ?? Infinity;
    if (weight > maxWeight) return;
    while (this.#slots.size >= this.#max || this.#weighed + weight > maxWeight) {
      const oldest = this.#slots.keys().next();
      if (oldest.done) break;
      this.#drop(oldest.value);
    }
    this.#slots.set(id, { entry, weight, placed: ++this.#placements });
    this.#weighed += weight;
  }

  #drop(id: number): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    this.#slots.delete(id);
    this.#weighed -= slot.weight;
  }
}
