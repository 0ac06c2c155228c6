/**
 * What the wallet's gems and coins exchange for now, on the gem exchange
 * (`/v2/commerce/exchange/gems` and `/coins`, no key needed; quotes cached a few minutes per
 * amount). A quote is an extra: when the exchange fails, the wallet answers without it.
 *
 * @module
 */

import type { WalletEntry } from "../gw2/schemas.ts";
import type { Gw2Client } from "../gw2/types.ts";
import { COIN_ID, GEM_ID, type WalletExchange } from "./shape.ts";

/**
 * The Gem row's worth in copper and the Coin row's worth in gems, each when the wallet holds
 * some and the exchange answered; a failed quote is reported to `onFailure` and left out.
 *
 * @example
 * ```ts
 * shapeWallet(wallet, currencies, await readExchange(gw2, wallet, (error) => log.info(...)));
 * ```
 */
export async function readExchange(
  gw2: Pick<Gw2Client, "doc">,
  wallet: readonly WalletEntry[],
  onFailure: (error: unknown) => void = () => {},
): Promise<WalletExchange> {
  const held = (id: number) => wallet.find((entry) => entry.id === id)?.value ?? 0;
  const quote = async (
    name: "gemsToCoins" | "coinsToGems",
    quantity: number,
  ): Promise<number | undefined> => {
    if (quantity <= 0) return 0;
    try {
      return (await gw2.doc(name, { quantity })).value.quantity;
    } catch (error) {
      onFailure(error);
      return undefined;
    }
  };
  const [coins, gems] = await Promise.all([
    quote("gemsToCoins", held(GEM_ID)),
    quote("coinsToGems", held(COIN_ID)),
  ]);
  return {
    ...(coins === undefined ? {} : { coins }),
    ...(gems === undefined ? {} : { gems }),
  };
}
