/**
 * Summaries of timing samples: median and nearest-rank percentiles, and a timer that collects
 * durations in milliseconds.
 *
 * @module
 */

/**
 * The `p`-th percentile (0–100) of `samples` by the nearest-rank method; `NaN` when empty.
 *
 * @example
 * ```ts
 * percentile([1, 2, 3, 4], 50); // 2
 * ```
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

/** The median: the middle sample, or the mean of the two middle ones; `NaN` when empty. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** Runs `fn` and returns how long it took, in milliseconds. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/**
 * Sequential timings of several subjects, taken in interleaved rounds (a round of each in turn)
 * so that a change in the machine's load during the run hits every subject alike.
 *
 * @example
 * ```ts
 * const ms = await interleaved({ floor: () => echo(), priory: () => items() }, 300);
 * median(ms.priory) / median(ms.floor);
 * ```
 */
export async function interleaved<K extends string>(
  subjects: Readonly<Record<K, () => Promise<unknown>>>,
  samples: number,
  round = 25,
): Promise<Record<K, number[]>> {
  const names = Object.keys(subjects) as K[]; // the keys of `subjects`, which is typed by K
  const results = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    K,
    number[]
  >;
  for (let taken = 0; taken < samples; taken += round) {
    for (const name of names) {
      for (let index = 0; index < Math.min(round, samples - taken); index++) {
        results[name].push(await timed(subjects[name]));
      }
    }
  }
  return results;
}
