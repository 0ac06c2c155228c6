/**
 * Recent trade volume per item, pure: what `priory_flips` ranks by. Each hourly roll-up folds
 * its bars into running sums of units sold and bought and of the minutes measured, after
 * decaying the old sums so their weight halves every {@linkcode VOLUME_HALF_LIFE_HOURS} hours.
 * The rate is the ratio of the sums: a day-scale average that needs one small read and write an
 * hour, whatever the history's length, and that a missed hour only ages.
 *
 * @module
 */

import type { Bar, Volume } from "./codec.ts";
import { perDay } from "./series.ts";

/** Hours over which the weight of a past hour halves. */
export const VOLUME_HALF_LIFE_HOURS = 24;
/** Measured minutes below which an item's volume is dropped (it stopped trading long ago). */
const FORGOTTEN_MINUTES = 1;

/**
 * The volumes after `hours` more hours (normally 1) whose bars are `bars`: every previous sum
 * decayed by `hours`, the bars' changes and minutes added.
 *
 * @example
 * ```ts
 * const next = foldHour(new Map(), bars, 1); // the first hour: its own sums
 * ```
 */
export function foldHour(
  previous: ReadonlyMap<number, Volume>,
  bars: readonly Bar[],
  hours: number,
): Volume[] {
  const decay = 2 ** (-Math.max(0, hours) / VOLUME_HALF_LIFE_HOURS);
  const next = new Map<number, Volume>();
  for (const volume of previous.values()) {
    const covered = volume.covered * decay;
    if (covered < FORGOTTEN_MINUTES) continue;
    next.set(volume.id, {
      id: volume.id,
      sold: volume.sold * decay,
      bought: volume.bought * decay,
      covered,
    });
  }
  for (const bar of bars) {
    const before = next.get(bar.id);
    next.set(bar.id, {
      id: bar.id,
      sold: (before?.sold ?? 0) + bar.sold,
      bought: (before?.bought ?? 0) + bar.bought,
      covered: (before?.covered ?? 0) + bar.covered,
    });
  }
  return [...next.values()].sort((a, b) => a.id - b.id);
}

/** Units a day sold and bought, from one item's volume. */
export function volumeRates(
  volume: Volume,
): { soldPerDay: number | null; boughtPerDay: number | null } {
  return {
    soldPerDay: perDay(volume.sold, volume.covered),
    boughtPerDay: perDay(volume.bought, volume.covered),
  };
}
