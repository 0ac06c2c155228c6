/**
 * One answer from several sources of the player's account, when the key may not read them all:
 * a source the key lacks a permission for is named with that permission (`unread`), and the
 * rest still answers (the contract's "The whole account": a missing scope for one part never
 * fails the whole call). Any other failure - a rejected key, an outage - fails the call as
 * before: it is not about one part.
 *
 * @module
 */

import { isGw2Failure } from "../gw2/errors.ts";

/** A part of an answer the key could not read, and the permission it needs. */
export interface Unread {
  readonly part: string;
  readonly scope: string;
}

/** One source's outcome: its value, or what kept the key from reading it. */
export type PartRead<T> = { readonly value: T } | { readonly unread: Unread };

/**
 * Runs `read`, the source of the answer's `part`; a missing permission becomes `{unread}` naming
 * the first scope upstream named.
 *
 * @throws whatever else `read` throws
 *
 * @example
 * ```ts
 * const [bank, delivery] = await Promise.all([
 *   readPart("bank", () => gw2.doc("accountBank", { key })),
 *   readPart("delivery", () => gw2.doc("delivery", { key })),
 * ]);
 * const unread = unreadOf([bank, delivery]); // [] when the key read both
 * ```
 */
export async function readPart<T>(part: string, read: () => Promise<T>): Promise<PartRead<T>> {
  try {
    return { value: await read() };
  } catch (error) {
    if (isGw2Failure(error) && error.kind === "scope_missing") {
      return { unread: { part, scope: error.scopes[0] ?? "account" } };
    }
    throw error;
  }
}

/**
 * {@linkcode readPart}, unless the key's `permissions` (its `/v2/tokeninfo`) lack one of `scopes`:
 * then the part is unread at once, naming the first missing, without a request upstream would
 * only refuse.
 *
 * @example
 * ```ts
 * const armory = await readPermitted("armory", token.permissions, ["inventories", "unlocks"], read);
 * ```
 */
export function readPermitted<T>(
  part: string,
  permissions: readonly string[],
  scopes: readonly string[],
  read: () => Promise<T>,
): Promise<PartRead<T>> {
  const missing = scopes.find((scope) => !permissions.includes(scope));
  return missing === undefined
    ? readPart(part, read)
    : Promise.resolve({ unread: { part, scope: missing } });
}

/** The value of a part, or `undefined` when it went unread. */
export function valueOf<T>(read: PartRead<T>): T | undefined {
  return "value" in read ? read.value : undefined;
}

/** The parts that went unread, in the order given, each part once. */
export function unreadOf(reads: readonly PartRead<unknown>[]): Unread[] {
  const seen = new Set<string>();
  const unread: Unread[] = [];
  for (const read of reads) {
    if (!("unread" in read) || seen.has(read.unread.part)) continue;
    seen.add(read.unread.part);
    unread.push(read.unread);
  }
  return unread;
}
