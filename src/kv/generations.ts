/**
 * A dataset published whole in Deno KV, as **generations**: a writer puts every entry of the new
 * generation under its own key prefix, then one write of the **head** names it; readers follow
 * the head. A writer that dies midway leaves the previous head, so the previous generation stays
 * the published one; the orphaned entries are deleted by the next {@linkcode GenerationStore.prune}.
 * The recipe catalogue (`src/catalogue/recipe_store.ts`) and the market sheet
 * (`src/market/sheet_store.ts`) are kept this way.
 *
 * Layout: the head at `headKey`; entries at `[...dataPrefix, generation, ...suffix]`.
 *
 * Writes respect KV's limits on one atomic commit ({@linkcode KV_COMMIT_MAX_BYTES},
 * {@linkcode KV_COMMIT_MAX_MUTATIONS}): {@linkcode GenerationStore.write} splits a generation
 * into as few commits as fit. Each value must itself fit KV's 64 KiB (the caller's layout sees
 * to it; a value over it is refused before anything is written).
 *
 * @module
 */

import { KV_VALUE_MAX_BYTES, kvValueSizeBound } from "./limits.ts";

/** Deno KV's bound on the bytes of one atomic commit (keys and values). */
export const KV_COMMIT_MAX_BYTES = 819_200;
/** Deno KV's bound on the mutations of one atomic commit. */
export const KV_COMMIT_MAX_MUTATIONS = 1_000;
/** Keys deleted per commit when pruning. */
const DELETE_BATCH = 500;
/**
 * What one commit of a write may hold: under the limits, with room for what a bound on a key's
 * size cannot see (KV's own per-mutation overhead).
 */
const BATCH_BYTES = KV_COMMIT_MAX_BYTES - 64 * 1024;
const BATCH_MUTATIONS = KV_COMMIT_MAX_MUTATIONS - 10;

/** Every head names the generation it publishes. */
export interface GenerationHead {
  readonly generation: number;
}

/** Options of {@linkcode GenerationStore}. */
export interface GenerationStoreOptions<H extends GenerationHead> {
  readonly kv: Deno.Kv;
  /** Where the head lives. */
  readonly headKey: Deno.KvKey;
  /** The prefix every generation's entries live under. */
  readonly dataPrefix: Deno.KvKey;
  /** The head as stored, or `undefined` when it does not fit (read as no head). */
  readonly parseHead: (value: unknown) => H | undefined;
}

/** One entry of a generation: its key below the generation, and its value. */
export type GenerationEntry = readonly [suffix: Deno.KvKey, value: unknown];

/** A dataset published in generations. */
export class GenerationStore<H extends GenerationHead> {
  readonly #kv: Deno.Kv;
  readonly #headKey: Deno.KvKey;
  readonly #dataPrefix: Deno.KvKey;
  readonly #parseHead: (value: unknown) => H | undefined;

  /** @param options the KV, the head's key, the entries' prefix, the head's parser */
  constructor(options: GenerationStoreOptions<H>) {
    this.#kv = options.kv;
    this.#headKey = options.headKey;
    this.#dataPrefix = options.dataPrefix;
    this.#parseHead = options.parseHead;
  }

  /** The published head, if any. */
  async head(): Promise<H | undefined> {
    return this.#parseHead((await this.#kv.get(this.#headKey)).value);
  }

  /** The key of an entry of `generation`. */
  key(generation: number, suffix: Deno.KvKey): Deno.KvKey {
    return [...this.#dataPrefix, generation, ...suffix];
  }

  /**
   * Writes every entry of `generation`, in as few commits as KV's limits allow (not published:
   * see {@linkcode publish}).
   *
   * @throws {RangeError} before any write, when one value is over KV's 64 KiB
   * @throws {Error} when a commit fails
   */
  async write(generation: number, entries: Iterable<GenerationEntry>): Promise<void> {
    const keyed: { key: Deno.KvKey; value: unknown; bytes: number }[] = [];
    for (const [suffix, value] of entries) {
      const key = this.key(generation, suffix);
      const size = kvValueSizeBound(value);
      if (size > KV_VALUE_MAX_BYTES) {
        throw new RangeError(
          `Cannot store ${JSON.stringify(suffix)}: ${size} bytes, at most 65536`,
        );
      }
      keyed.push({ key, value, bytes: size + keySizeBound(key) });
    }
    let op = this.#kv.atomic();
    let bytes = 0;
    let mutations = 0;
    const flush = async () => {
      if (mutations === 0) return;
      const result = await op.commit();
      if (!result.ok) throw new Error(`Generation ${generation} was not written`);
      op = this.#kv.atomic();
      bytes = 0;
      mutations = 0;
    };
    for (const entry of keyed) {
      if (mutations + 1 > BATCH_MUTATIONS || bytes + entry.bytes > BATCH_BYTES) await flush();
      op.set(entry.key, entry.value);
      bytes += entry.bytes;
      mutations++;
    }
    await flush();
  }

  /** Adds the publication of `head` to `op`: readers switch to its generation on commit. */
  publish(op: Deno.AtomicOperation, head: H): Deno.AtomicOperation {
    return op.set(this.#headKey, head);
  }

  /** Every entry of `generation`, in key order. */
  list(generation: number): Deno.KvListIterator<unknown> {
    return this.#kv.list({ prefix: [...this.#dataPrefix, generation] }, { batchSize: 500 });
  }

  /** Deletes every generation but those in `keep` (a replaced one, an abandoned write). */
  async prune(keep: readonly number[]): Promise<void> {
    await this.#deleteUnder(this.#dataPrefix, (key) => {
      const generation = key[this.#dataPrefix.length];
      return !(typeof generation === "number" && keep.includes(generation));
    });
  }

  /** Deletes generation `generation` alone, leaving any other (one being written elsewhere). */
  async deleteGeneration(generation: number): Promise<void> {
    await this.#deleteUnder([...this.#dataPrefix, generation], () => true);
  }

  /** Deletes the entries under `prefix` that `doomed` names, in batches. */
  async #deleteUnder(prefix: Deno.KvKey, doomed: (key: Deno.KvKey) => boolean): Promise<void> {
    let keys: Deno.KvKey[] = [];
    const flush = async () => {
      const op = this.#kv.atomic();
      for (const key of keys) op.delete(key);
      await op.commit();
      keys = [];
    };
    for await (const entry of this.#kv.list({ prefix })) {
      if (!doomed(entry.key)) continue;
      keys.push(entry.key);
      if (keys.length === DELETE_BATCH) await flush();
    }
    if (keys.length > 0) await flush();
  }
}

/** A bound on a key's stored bytes: a string part as UTF-8 at worst, any other part as 9. */
function keySizeBound(key: Deno.KvKey): number {
  let bytes = 0;
  for (const part of key) {
    bytes += typeof part === "string"
      ? 2 + part.length * 3
      : part instanceof Uint8Array
      ? 2 + part.byteLength
      : 10;
  }
  return bytes;
}
