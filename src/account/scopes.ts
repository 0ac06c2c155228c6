/**
 * Scope pre-checks against `/v2/tokeninfo` (cached five minutes under the key's HMAC, like every
 * account read). A read that needs several scopes asks once and names every missing one before
 * spending any further request, where upstream's 403 would name only the first.
 *
 * @module
 */

import { Gw2ScopeMissingError } from "../gw2/errors.ts";
import type { Gw2Client } from "../gw2/types.ts";

/**
 * Resolves when the key has every scope in `scopes`.
 *
 * @example
 * ```ts
 * await requireScopes(gw2, key, ["account", "inventories", "characters"]);
 * ```
 * @throws {Gw2ScopeMissingError} naming every missing scope, in the order given
 * @throws {Gw2KeyRejectedError} when GW2 rejects the key
 */
export async function requireScopes(
  gw2: Gw2Client,
  key: string,
  scopes: readonly string[],
): Promise<void> {
  const { value } = await gw2.doc("tokenInfo", { key });
  const [first, ...more] = scopes.filter((scope) => !value.permissions.includes(scope));
  if (first !== undefined) throw new Gw2ScopeMissingError(first, ...more);
}
