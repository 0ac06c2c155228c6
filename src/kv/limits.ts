/**
 * Deno KV's limits, shared by every store: the keys one `getMany` reads, and the exact size of a
 * value as Deno KV stores it, for its 64 KiB value limit and the 800 KiB
 * limit of one atomic commit. KV stores a value (other than a `Uint8Array`) as the V8
 * serialization of it, and `node:v8`'s `serialize` produces the same bytes: measured on Deno
 * 2.9.6 and 2.5.6, a value is accepted exactly when its `serialize` length is at most 65,536
 * (arrays of `0.5`, one- and two-byte strings, arrays of objects). JSON length is no estimate
 * of that: 8,000 × `0.5` is 32 KB of JSON and 72 KB of V8.
 *
 * Serializing is not free in memory: each `node:v8` `serialize` call leaves a native
 * `ValueSerializer` (~8 KB of V8 zone memory) until the next full garbage collection, and the
 * `malloc` arena keeps those pages after they are freed - a sweep of ~6,500 prices left ~34 MB of
 * resident memory behind (docs/performance.md, "Memory"). So the stores size a value with
 * {@linkcode kvValueSizeBound}: a walk of the value that never serializes what is plainly small.
 *
 * @module
 */

import { serialize } from "node:v8";

/** The most keys one `Deno.Kv.getMany` call reads. */
export const GET_MANY_LIMIT = 10;

/** Deno KV's limit on one value, in serialized bytes. */
export const KV_VALUE_MAX_BYTES = 65_536;

/**
 * The bytes `value` takes in KV: raw length for a `Uint8Array`, else its V8 serialization. Each
 * call leaves native memory until the next full collection, so only the bound below calls it,
 * for what it cannot bound under the limit.
 */
function kvValueSize(value: unknown): number {
  return value instanceof Uint8Array ? value.byteLength : serialize(value).byteLength;
}

/**
 * A size no smaller than the bytes `value` takes in KV, exact whenever it exceeds
 * {@linkcode KV_VALUE_MAX_BYTES}: comparing it with the limit decides exactly what KV accepts,
 * and summing it never undercounts a commit. Plain data (objects, arrays, strings, numbers,
 * booleans, null, undefined) is bounded by a walk without serializing - every string as if
 * stored two bytes a character, every number as a double - and serialized only when that bound
 * is over the limit; anything else (a `Map`, a `Date`, a class instance, a cycle) is
 * serialized.
 */
export function kvValueSizeBound(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  const bound = HEADER_BYTES + boundOf(value, 0);
  return bound <= KV_VALUE_MAX_BYTES ? bound : kvValueSize(value);
}

/** V8's serialization header: a tag and the format version (15). */
const HEADER_BYTES = 2;
/** The most bytes of a number: a double's tag and eight bytes (a small integer takes <= 6). */
const NUMBER_BYTES = 9;
/** Nesting walked before the value is serialized instead (a cycle ends here too). */
const MAX_DEPTH = 64;

/** Bytes of `n` as an unsigned varint. */
function varintBytes(n: number): number {
  let bytes = 1;
  for (let rest = n; rest >= 0x80; rest = Math.floor(rest / 0x80)) bytes++;
  return bytes;
}

/** A string stored two bytes a character: a padding byte, the tag, the byte length, the bytes. */
function stringBound(text: string): number {
  return 2 + varintBytes(text.length * 2) + text.length * 2;
}

/** A bound on the serialized bytes of `value`; `Infinity` when the walk cannot bound it. */
function boundOf(value: unknown, depth: number): number {
  switch (typeof value) {
    case "string":
      return stringBound(value);
    case "number":
      return NUMBER_BYTES;
    case "boolean":
    case "undefined":
      return 1;
    case "object": {
      if (value === null) return 1;
      if (depth >= MAX_DEPTH) return Infinity;
      const array = Array.isArray(value);
      const prototype: unknown = Object.getPrototypeOf(value);
      if (!array && prototype !== Object.prototype && prototype !== null) return Infinity;
      // An object: its tag, each own enumerable key (an index as a number) and value, the end
      // tag and the count. An array also states its length after both tags.
      const keys = Object.keys(value);
      const length = array ? varintBytes(value.length) * 2 : 0;
      let bytes = 2 + varintBytes(keys.length) + length;
      for (const key of keys) {
        bytes += Math.max(NUMBER_BYTES, stringBound(key)) +
          boundOf(Reflect.get(value, key), depth + 1);
      }
      return bytes;
    }
    default:
      return Infinity; // bigint, symbol, function: left to the serializer (which may throw)
  }
}
