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
 * Writes and deletes respect KV's limits on one atomic commit: they go through `batch.ts`
 * (`commitInBatches`), which splits them into as few commits as fit. Each value must itself fit
 * KV's 64 KiB (the caller's layout sees to it; a value over it is refused before anything is
 * written).
 *
 * @module
 */

import { commitInBatches, type KvWrite } from "./batch.ts";
import { KV_VALUE_MAX_BYTES, kvValueSizeBound } from "./limits.ts";

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
    return (await this.headEntry()).head;
  }

  /**
   * The published head and the versionstamp of its entry (`null` when there is none): what
   * {@linkcode publishOver} checks.
   */
  async headEntry(): Promise<
    { readonly head: H | undefined; readonly versionstamp: string | null }
  > {
    const entry = await this.#kv.get(this.#headKey);
    return { head: this.#parseHead(entry.value), versionstamp: entry.versionstamp };
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
    const writes: KvWrite[] = [];
    for (const [suffix, value] of entries) {
      const size = kvValueSizeBound(value);
      if (size > KV_VALUE_MAX_BYTES) {
        throw new RangeError(
          `Cannot store ${JSON.stringify(suffix)}: ${size} bytes, at most 65536`,
        );
      }
      writes.push({ key: this.key(generation, suffix), value });
    }
    await commitInBatches(this.#kv, writes);
  }

  /** Adds the publication of `head` to `op`: readers switch to its generation on commit. */
  publish(op: Deno.AtomicOperation, head: H): Deno.AtomicOperation {
    return op.set(this.#headKey, head);
  }

  /**
   * Adds the publication of `head` to `op` on condition that the head is still the one read with
   * `versionstamp` ({@linkcode headEntry}): the commit fails when another writer published since.
   */
  publishOver(
    op: Deno.AtomicOperation,
    head: H,
    versionstamp: string | null,
  ): Deno.AtomicOperation {
    return this.publish(op.check({ key: this.#headKey, versionstamp }), head);
  }

  /** Every entry of `generation`, in key order. */
  list(generation: number): Deno.KvListIterator<unknown> {
    return this.#kv.list({ prefix: [...this.#dataPrefix, generation] }, { batchSize: 500 });
  }

  /**
   * Deletes every generation but those in `keep` (a replaced one, an abandoned write) and, with
   * `below`, those from `below` up (a newer one another writer may still be writing).
   */
  async prune(keep: readonly number[], below = Number.POSITIVE_INFINITY): Promise<void> {
    await this.#deleteUnder(this.#dataPrefix, (key) => {
      const generation = key[this.#dataPrefix.length];
      return !(typeof generation === "number" &&
        (keep.includes(generation) || generation >= below));
    });
  }

  /** Deletes generation `generation` alone, leaving any other (one being written elsewhere). */
  async deleteGeneration(generation: number): Promise<void> {
    await this.#deleteUnder([...this.#dataPrefix, generation], () => true);
  }

  /** Deletes the entries under `prefix` that `doomed` names, in batches (`batch.ts`). */
  async #deleteUnder(prefix: Deno.KvKey, doomed: (key: Deno.KvKey) => boolean): Promise<void> {
    const deletes: KvWrite[] = [];
    for await (const entry of this.#kv.list({ prefix })) {
      if (doomed(entry.key)) deletes.push({ key: entry.key });
    }
    await commitInBatches(this.#kv, deletes);
  }
}
