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
  /** The Gem row: the copper its gems sell for now on the gem exchange. */
  readonly coins?: number;
  /** The Coin row: the gems its coins buy now. */
  readonly gems?: number;
}

/** The wallet's currency ids of coin (copper) and gems. */
export const COIN_ID = 1;
/** The Gem currency's id. */
export const GEM_ID = 4;

/** What the wallet's gems and coins exchange for now (`/v2/commerce/exchange`), when read. */
export interface WalletExchange {
  /** Copper the Gem row's gems sell for. */
  readonly coins?: number;
  /** Gems the Coin row's copper buys. */
  readonly gems?: number;
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

/**
 * The wallet in upstream order, each entry with its currency's name; the Gem row with what its
 * gems sell for and the Coin row with the gems its coins buy, when the exchange was read.
 */
export function shapeWallet(
  wallet: readonly WalletEntry[],
  currencies: readonly Currency[],
  exchange: WalletExchange = {},
): WalletRow[] {
  const names = new Map(currencies.map((currency) => [currency.id, currency.name]));
  return wallet.map((entry) => ({
    id: entry.id,
    name: names.get(entry.id) ?? null,
    value: entry.value,
    ...(entry.id === GEM_ID && exchange.coins !== undefined ? { coins: exchange.coins } : {}),
    ...(entry.id === COIN_ID && exchange.gems !== undefined ? { gems: exchange.gems } : {}),
  }));
}
