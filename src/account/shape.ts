/**
 * The account tools' lean results, built field by field from validated records: the account's
 * non-secret facts (never its GUID) with the key's permissions, and the wallet with currency
 * names. Pure functions.
 *
 * @module
 */

import type { Account, Currency, TokenInfo, WalletEntry } from "../gw2/schemas.ts";

/** `priory_account` structured result. */
export interface AccountResult {
  readonly name: string;
  /** World (home server) id. */
  readonly world: number;
  /** When the account was created (ISO 8601). */
  readonly created: string;
  /** Time played on the account, whole hours (upstream `age`, seconds). */
  readonly hours_played: number;
  /** Game and expansions the account owns. */
  readonly access: string[];
  readonly commander: boolean;
  /** Present when the key has the `progression` scope. */
  readonly fractal_level?: number;
  readonly wvw_rank?: number;
  /** The key's permissions (`/v2/tokeninfo`): which account tools it can serve. */
  readonly key_permissions: string[];
}

/** One wallet row. */
export interface WalletRow {
  readonly id: number;
  /** `null` when `/v2/currencies` does not list the currency. */
  readonly name: string | null;
  /** Amount held; coin (id 1) in copper. */
  readonly value: number;
}

/**
 * Keeps the account facts an agent can use; the account id (a GUID), guild ids and the like
 * are never built in.
 */
export function shapeAccount(account: Account, token: TokenInfo): AccountResult {
  return {
    name: account.name,
    world: account.world,
    created: account.created,
    hours_played: Math.floor(account.age / 3600),
    access: [...account.access],
    commander: account.commander,
    ...(account.fractal_level === undefined ? {} : { fractal_level: account.fractal_level }),
    ...(account.wvw_rank === undefined ? {} : { wvw_rank: account.wvw_rank }),
    key_permissions: [...token.permissions],
  };
}

/** The wallet in upstream order, each entry with its currency's name. */
export function shapeWallet(
  wallet: readonly WalletEntry[],
  currencies: readonly Currency[],
): WalletRow[] {
  const names = new Map(currencies.map((currency) => [currency.id, currency.name]));
  return wallet.map((entry) => ({
    id: entry.id,
    name: names.get(entry.id) ?? null,
    value: entry.value,
  }));
}
