/**
 * Deno KV's limits, shared by every store: the keys one `getMany` reads, and the exact size of a
 * value as Deno KV stores it, for its 64 KiB value limit and the 800 KiB
 * limit of one atomic commit. KV stores a value (other than a `Uint8Array`) as the V8
 * serialization of it, and `node:v8`'s `serialize` produces the same bytes: measured on Deno
 * 2.9.6 and 2.5.6, a value is accepted exactly when its `serialize` length is at most 65,536
 * (arrays of `0.5`, one- and two-byte strings, arrays of objects). JSON length is no estimate
 * of that: 8,000 × `0.5` is 32 KB of JSON and 72 KB of V8.
 *
 * @module
 */

import { serialize } from "node:v8";

/** The most keys one `Deno.Kv.getMany` call reads. */
export const GET_MANY_LIMIT = 10;

/** Deno KV's limit on one value, in serialized bytes. */
export const KV_VALUE_MAX_BYTES = 65_536;

/** The bytes `value` takes in KV: raw length for a `Uint8Array`, else its V8 serialization. */
export function kvValueSize(value: unknown): number {
  return value instanceof Uint8Array ? value.byteLength : serialize(value).byteLength;
}
