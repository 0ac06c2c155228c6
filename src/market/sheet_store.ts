/**
 * The market sheet in Deno KV, published whole as a generation of shards (`src/kv/generations.ts`):
 * the shards of the new sheet are written first ({@linkcode SHARD_ROWS} rows each, ~63 KB, under
 * KV's 64 KiB per value; the real Trading Post's ~9 shards fit one commit under 800 KB), then one
 * write of the head names it, on condition that the head is still the one it replaces. A writer
 * that dies midway leaves the previous sheet published; after each publication every older
 * generation but the one it replaced (an instance may still be loading it) is deleted - never a
 * newer one, which another instance may be writing. Two instances publishing at once (tool calls
 * read on demand, outside the job's lease): the newer sheet wins, the other's shards are deleted,
 * and the head never names a generation whose shards are gone. Layout, under
 * `["market", "v1", <upstream base URL>]`:
 *
 * | key suffix | value |
 * |---|---|
 * | `"sheet-head"` | `{generation, takenAt, count, shards, previous?}` |
 * | `"sheet", generation, shard` | a `Uint8Array`: rows packed by `packShard` |
 *
 * @module
 */

import { type GenerationHead, GenerationStore } from "../kv/generations.ts";
import { type MarketSheet, packSheet, SHARD_ROWS, sheetSize, unpackSheet } from "./sheet.ts";

export { SHARD_ROWS };

/** The published sheet: which generation, when it was taken, how many rows in how many shards. */
export interface SheetHead extends GenerationHead {
  readonly takenAt: number;
  readonly count: number;
  readonly shards: number;
  /** The generation it replaced (deleted at the next publication). */
  readonly previous?: number;
}

/** Options of {@linkcode SheetStore}. */
export interface SheetStoreOptions {
  readonly kv: Deno.Kv;
  /** Keeps the sheets of different upstreams apart: pass the upstream base URL. */
  readonly namespace: string;
}

/** The KV side of the market sheet. */
export class SheetStore {
  readonly #kv: Deno.Kv;
  readonly #generations: GenerationStore<SheetHead>;

  /** @param options the KV and the namespace */
  constructor(options: SheetStoreOptions) {
    this.#kv = options.kv;
    const root = ["market", "v1", options.namespace];
    this.#generations = new GenerationStore({
      kv: options.kv,
      headKey: [...root, "sheet-head"],
      dataPrefix: [...root, "sheet"],
      parseHead,
    });
  }

  /** The published sheet's head, if any. */
  head(): Promise<SheetHead | undefined> {
    return this.#generations.head();
  }

  /**
   * Writes `sheet` as a new generation, publishes it, and deletes the generations before the one
   * it replaces. When another instance publishes meanwhile, this sheet is published over it only
   * if it is the newer (and its generation the higher); else its shards are deleted.
   *
   * @returns the published head: this sheet's, or the other instance's that won
   * @throws when KV fails (the previous sheet stays the published one)
   */
  async publish(sheet: MarketSheet): Promise<SheetHead> {
    let read = await this.#generations.headEntry();
    // Generations ascend even when two sheets are stamped in the same millisecond.
    const generation = Math.max(sheet.takenAt, (read.head?.generation ?? 0) + 1);
    const shards = packSheet(sheet);
    await this.#generations.write(generation, shards.map((shard, index) => [[index], shard]));
    for (;;) {
      const replaced = read.head;
      const head: SheetHead = {
        generation,
        takenAt: sheet.takenAt,
        count: sheetSize(sheet),
        shards: shards.length,
        ...(replaced === undefined ? {} : { previous: replaced.generation }),
      };
      const published = await this.#generations
        .publishOver(this.#kv.atomic(), head, read.versionstamp).commit();
      if (published.ok) {
        await this.#generations.prune(
          replaced === undefined ? [] : [replaced.generation],
          generation,
        );
        return head;
      }
      read = await this.#generations.headEntry();
      const other = read.head;
      if (
        other !== undefined && (other.takenAt >= sheet.takenAt || other.generation >= generation)
      ) {
        // Theirs is the newer: ours goes (unless both wrote the same generation's keys).
        if (other.generation !== generation) await this.#generations.deleteGeneration(generation);
        return other;
      }
    }
  }

  /**
   * The sheet `head` names; `undefined` when its shards are not all there (being replaced, or
   * damaged): the caller keeps what it has and tries again later.
   */
  async load(head: SheetHead): Promise<MarketSheet | undefined> {
    const shards: Uint8Array[] = [];
    for await (const entry of this.#generations.list(head.generation)) {
      if (!(entry.value instanceof Uint8Array)) return undefined;
      shards.push(entry.value);
    }
    if (shards.length !== head.shards) return undefined;
    const sheet = unpackSheet(shards, head.takenAt);
    return sheet !== undefined && sheetSize(sheet) === head.count ? sheet : undefined;
  }
}

function parseHead(value: unknown): SheetHead | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (name: string): unknown => Reflect.get(value, name);
  const [generation, takenAt, count, shards, previous] = [
    field("generation"),
    field("takenAt"),
    field("count"),
    field("shards"),
    field("previous"),
  ];
  if (
    typeof generation !== "number" || typeof takenAt !== "number" || typeof count !== "number" ||
    typeof shards !== "number"
  ) {
    return undefined;
  }
  return typeof previous === "number"
    ? { generation, takenAt, count, shards, previous }
    : { generation, takenAt, count, shards };
}
