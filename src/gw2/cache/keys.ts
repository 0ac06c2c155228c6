/**
 * Every Deno KV key the upstream layer writes, built in one place. Layout (all under
 * `["gw2", "v1", <upstream base URL>]`, so a KV shared between the real API and a fake never
 * mixes their data, and a layout change bumps `v1`):
 *
 * | key suffix | value |
 * |---|---|
 * | `"rec", kind, id` | one record (`item`, `recipe`, `price`, `listing`; an item's name in another language: `name-de` ...) or an "unknown id" marker |
 * | `"doc", "materials"` / `"doc", "currencies"` | a whole public list (English) |
 * | `"doc", "materials" \| "currencies", lang` | its names in another language |
 * | `"doc", "search", "input" \| "output", itemId` | recipe ids of a search |
 * | `"pub", name, ...parts` | a public document of the `DOCS` table (parts: its parameters) |
 * | `"acct", keyHash, name, ...parts` | one account read, under the key's HMAC (a `DOCS` row) |
 * | `"part", generation, index` | a slice of a large document (see `doc_cache.ts`) |
 * | `"bucket"` | the shared upstream token bucket |
 * | `"key-secret"` | the secret of the key HMAC (see `key_secret.ts`) |
 *
 * @module
 */

import type { Lang } from "../types.ts";

/**
 * Record kinds cached one entry per id: the core ones, an item's name in a language other than
 * English (a record of its own: only the name differs between languages), and the name of any
 * row of the client's `BULK` table.
 */
export type RecordKind =
  | "item"
  | "recipe"
  | "price"
  | "listing"
  | `name-${Exclude<Lang, "en">}`
  | (string & Record<never, never>);

const VERSION = "v1";

/** Builds the keys of one upstream (one base URL). */
export class Gw2Keys {
  readonly #root: readonly [string, string, string];

  /** @param baseUrl the upstream base URL the cached data comes from */
  constructor(baseUrl: string) {
    this.#root = ["gw2", VERSION, baseUrl];
  }

  /** The prefix of every key of this upstream (for listing in tests and tools). */
  get prefix(): Deno.KvKey {
    return this.#root;
  }

  /** One record of a bulk endpoint. */
  record(kind: RecordKind, id: number): Deno.KvKey {
    return [...this.#root, "rec", kind, id];
  }

  /** A public list (`materials`, `currencies`): English, or its names in `lang`. */
  list(name: "materials" | "currencies", lang: Lang = "en"): Deno.KvKey {
    return lang === "en" ? [...this.#root, "doc", name] : [...this.#root, "doc", name, lang];
  }

  /** A recipe search by input or output item. */
  search(direction: "input" | "output", itemId: number): Deno.KvKey {
    return [...this.#root, "doc", "search", direction, itemId];
  }

  /** A public document of the `DOCS` table, one entry per set of parameters. */
  doc(name: string, parts: readonly (string | number)[] = []): Deno.KvKey {
    return [...this.#root, "pub", name, ...parts];
  }

  /** An account read, keyed by the HMAC of the player's key (never the key). */
  account(keyHash: string, doc: string, parts: readonly (string | number)[] = []): Deno.KvKey {
    return [...this.#root, "acct", keyHash, doc, ...parts];
  }

  /** One slice of a document too large for a single KV value. */
  part(generation: string, index: number): Deno.KvKey {
    return [...this.#root, "part", generation, index];
  }

  /** The shared token bucket of this upstream. */
  bucket(): Deno.KvKey {
    return [...this.#root, "bucket"];
  }

  /** The secret every instance hashes players' keys with (never the keys themselves). */
  keySecret(): Deno.KvKey {
    return [...this.#root, "key-secret"];
  }
}
