/**
 * Whole upstream documents in KV: a public list (materials, currencies), a recipe search, or
 * one account read. A document that fits one KV value (64 KiB, measured exactly) is stored
 * inline as `{fetchedAt, value}`; a larger one (a big bank, say) is stored as UTF-8 JSON in
 * slices of at most 60,000 bytes under a fresh generation id, with the head `{fetchedAt, parts,
 * generation}` written in the same atomic commit, so a reader never mixes two versions.
 * KV failures (errors, or no answer within the bound of `timeout.ts`) are logged and read as a
 * miss.
 *
 * @module
 */

import { describeError as describe, type Logger } from "../../log.ts";
import type { Gw2Keys } from "./keys.ts";
import { chunk } from "../../async/concurrency.ts";
import type { ValueParser } from "./record_cache.ts";
import { GET_MANY_LIMIT } from "../../kv/limits.ts";
import { KV_VALUE_MAX_BYTES, kvValueSizeBound } from "../../kv/limits.ts";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../../kv/timeout.ts";

/** A cached document. */
export interface DocEntry<T> {
  readonly fetchedAt: number;
  readonly value: T;
}

/** Slice size of a large document; a `Uint8Array` value of this size is far below 64 KiB. */
export const PART_BYTES = 60_000;
/** Head plus parts must fit one commit (800 KB); larger documents are not cached. */
const MAX_PARTS = 12;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The document cache of one upstream. */
export class DocCache {
  readonly #kv: Deno.Kv;
  readonly #keys: Gw2Keys;
  readonly #log: Logger;
  readonly #timeout: KvTimeout;

  /**
   * @param kv the shared KV; @param keys key builders; @param log for KV failures
   * @param timeout the bound of each read, write and delete
   */
  constructor(kv: Deno.Kv, keys: Gw2Keys, log: Logger, timeout: KvTimeout = DEFAULT_KV_TIMEOUT) {
    this.#kv = kv;
    this.#keys = keys;
    this.#log = log;
    this.#timeout = timeout;
  }

  /** Reads a document; `undefined` when absent, incomplete or no longer valid. */
  async get<T>(key: Deno.KvKey, parse: ValueParser<T>): Promise<DocEntry<T> | undefined> {
    try {
      return await withKvTimeout(this.#timeout, async () => {
        const head = (await this.#kv.get(key, { consistency: "eventual" })).value;
        if (typeof head !== "object" || head === null) return undefined;
        const fetchedAt: unknown = Reflect.get(head, "fetchedAt");
        if (typeof fetchedAt !== "number") return undefined;
        const raw = Reflect.has(head, "value")
          ? Reflect.get(head, "value")
          : await this.#readParts(Reflect.get(head, "generation"), Reflect.get(head, "parts"));
        if (raw === undefined) return undefined;
        const value = parse(raw);
        return value === undefined ? undefined : { fetchedAt, value };
      });
    } catch (error) {
      this.#log.warn("gw2 cache read failed", { doc: String(key.at(-1)), error: describe(error) });
      return undefined;
    }
  }

  /** Writes a document (inline or sliced); failures are logged, not thrown. */
  async put(key: Deno.KvKey, value: unknown, fetchedAt: number, expireInMs: number): Promise<void> {
    try {
      const op = this.#kv.atomic();
      const inline = { fetchedAt, value };
      if (kvValueSizeBound(inline) <= KV_VALUE_MAX_BYTES) {
        op.set(key, inline, { expireIn: expireInMs });
      } else {
        const bytes = encoder.encode(JSON.stringify(value));
        const parts = Math.ceil(bytes.byteLength / PART_BYTES);
        if (parts > MAX_PARTS) {
          this.#log.warn("gw2 cache skipped an oversized document", {
            doc: String(key.at(-1)),
            size: bytes.byteLength,
          });
          return;
        }
        const generation = crypto.randomUUID();
        for (let index = 0; index < parts; index++) {
          const slice = bytes.slice(index * PART_BYTES, (index + 1) * PART_BYTES);
          op.set(this.#keys.part(generation, index), slice, { expireIn: expireInMs });
        }
        op.set(key, { fetchedAt, parts, generation }, { expireIn: expireInMs });
      }
      await withKvTimeout(this.#timeout, () => op.commit());
    } catch (error) {
      this.#log.warn("gw2 cache write failed", { doc: String(key.at(-1)), error: describe(error) });
    }
  }

  /** Removes a document's head (its slices expire on their own). */
  async delete(key: Deno.KvKey): Promise<void> {
    try {
      await withKvTimeout(this.#timeout, () => this.#kv.delete(key));
    } catch (error) {
      this.#log.warn("gw2 cache delete failed", { error: describe(error) });
    }
  }

  async #readParts(generation: unknown, parts: unknown): Promise<unknown> {
    if (typeof generation !== "string" || typeof parts !== "number") return undefined;
    if (!Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) return undefined;
    const keys = Array.from({ length: parts }, (_, index) => this.#keys.part(generation, index));
    const slices: Uint8Array[] = [];
    for (const group of chunk(keys, GET_MANY_LIMIT)) {
      for (const entry of await this.#kv.getMany(group, { consistency: "eventual" })) {
        if (!(entry.value instanceof Uint8Array)) return undefined;
        slices.push(entry.value);
      }
    }
    const joined = new Uint8Array(slices.reduce((total, slice) => total + slice.byteLength, 0));
    let offset = 0;
    for (const slice of slices) {
      joined.set(slice, offset);
      offset += slice.byteLength;
    }
    return JSON.parse(decoder.decode(joined));
  }
}
