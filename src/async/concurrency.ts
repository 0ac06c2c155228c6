/**
 * Bounded concurrency for fan-outs (an account's characters, a large id list's chunks): at most
 * `limit` calls of `fn` run at once, so one tool call cannot flood the upstream budget or KV.
 *
 * @module
 */

/**
 * Maps `items` through `fn` with at most `limit` calls in flight; results keep input order.
 *
 * On the first failure no further item is started; the calls already running are awaited (so
 * nothing is left pending behind the caller's back) and then the first error is thrown. When
 * `options.signal` aborts, likewise nothing new starts and the signal's reason is thrown.
 *
 * @example
 * ```ts
 * const inventories = await mapWithConcurrency(names, 4, (name) => gw2.doc("characterInventory", { key, name: name }));
 * ```
 * @param items the inputs
 * @param limit the most calls running at once (at least 1)
 * @param fn the async mapping, given the item and its index
 * @param options `signal`: stop starting new items when it aborts
 * @returns the results, in the order of `items`
 * @throws {RangeError} when `limit` is not a positive integer
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  options: { readonly signal?: AbortSignal } = {},
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(
      `Cannot map with concurrency: limit must be a positive integer, got ${limit}`,
    );
  }
  const results = new Array<R>(items.length);
  // One iterator shared by every worker: each pulls the next unclaimed item.
  const queue = items.entries();
  let failure: { error: unknown } | undefined;
  async function worker(): Promise<void> {
    for (let step = queue.next(); !step.done && failure === undefined; step = queue.next()) {
      if (options.signal?.aborted) {
        failure ??= { error: options.signal.reason };
        return;
      }
      const [index, item] = step.value;
      try {
        results[index] = await fn(item, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  const workers = Array.from({ length: Math.min(limit, items.length) }, () => worker());
  await Promise.all(workers);
  if (failure !== undefined) throw failure.error;
  return results;
}

/**
 * Splits `items` into consecutive groups of at most `size` (KV's 10-key reads, GW2's 200-id
 * requests).
 *
 * @example
 * ```ts
 * chunk([1, 2, 3, 4, 5], 2); // [[1, 2], [3, 4], [5]]
 * ```
 */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`Cannot chunk: size must be a positive integer, got ${size}`);
  }
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    groups.push(items.slice(start, start + size));
  }
  return groups;
}

/**
 * `Promise.all` that waits for every promise before failing: the values in order, or - once all
 * have settled - the first failure in list order. Nothing is left running behind the caller.
 *
 * @example
 * ```ts
 * const [account, token] = await settleAll([gw2.doc("account", { key }), gw2.doc("tokenInfo", { key })]);
 * ```
 */
export async function settleAll<T extends readonly unknown[] | []>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const values = settled.map((result) => {
    if (result.status === "rejected") throw result.reason;
    return result.value;
  });
  // `map` loses the tuple's per-position types; each position holds exactly its promise's value.
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}
