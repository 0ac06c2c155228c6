/**
 * The legendary armory on the legendary list and the ranking (issue 30): how many of each
 * legendary the account's armory holds (`owned`), and how many it can hold (`max`). Pure: the
 * tools read `/v2/account/legendaryarmory` and `/v2/legendaryarmory` and hand the rows here.
 *
 * @module
 */

import type { ArmoryLimit, ArmorySlot } from "../gw2/schemas.ts";

/** Each row with `owned` (0 when the armory holds none) and, where known, `max`. */
export function withArmory<T extends { readonly id: number }>(
  rows: readonly T[],
  held: readonly ArmorySlot[],
  limits: readonly ArmoryLimit[] = [],
): (T & { readonly owned: number; readonly max?: number })[] {
  const owned = new Map(held.map((slot) => [slot.id, slot.count]));
  const max = new Map(limits.map((limit) => [limit.id, limit.max_count]));
  return rows.map((row) => {
    const limit = max.get(row.id);
    return {
      ...row,
      owned: owned.get(row.id) ?? 0,
      ...(limit === undefined ? {} : { max: limit }),
    };
  });
}

/**
 * `rows` without the legendaries the armory already holds (a legendary owned is not a goal),
 * and how many went.
 */
export function withoutOwned<T extends { readonly owned: number }>(
  rows: readonly T[],
): { readonly rows: T[]; readonly excluded: number } {
  const kept = rows.filter((row) => row.owned === 0);
  return { rows: kept, excluded: rows.length - kept.length };
}
