/**
 * Seeded randomness for tests and the fake world. Every generated value draws from a generator
 * seeded by the thing it describes (an item id and a purpose, or a test instance's index), never
 * from a shared stream, so adding a record elsewhere cannot shift another record's bytes. Give
 * contending instances different seeds: a shared one would pause them in lockstep and defeat the
 * jitter the token bucket relies on.
 *
 * @module
 */

/** A deterministic pseudo-random source (mulberry32). */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/** FNV-1a over the parts' string forms: a stable 32-bit seed for {@linkcode seeded}. */
export function hashSeed(...parts: readonly (number | string)[]): number {
  const text = parts.join("\u0000");
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A generator seeded by the given parts, e.g. `seeded(19721, "price")`. */
export function seeded(...parts: readonly (number | string)[]): Random {
  let state = hashSeed(...parts);
  function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick<T>(list: readonly T[]): T {
      const value = list[Math.floor(next() * list.length)];
      if (value === undefined) throw new RangeError("Cannot pick from a list: it is empty");
      return value;
    },
    chance: (p) => next() < p,
  };
}
