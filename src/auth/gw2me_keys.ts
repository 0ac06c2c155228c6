/**
 * The GW2 key of a gw2.me sign-in: a short-lived subtoken minted from the grant's gw2.me tokens.
 * The grant keeps gw2.me's refresh token sealed where a key sign-in keeps its key, and beside it
 * (sealed too) the last access token and subtoken with their expiries. A call uses the subtoken
 * until {@linkcode SUBTOKEN_MARGIN_MS} before it expires; then one request of this instance
 * mints the next (the others wait for it): with the access token while it lives, else after a
 * refresh - whose answer carries a new refresh token, stored at once, since gw2.me rotates them
 * and the old one no longer works. Every write is a compare-and-set on the grant, retried on a
 * race, so a concurrent refresh of Priory's own tokens loses nothing.
 *
 * gw2.me refusing for good (the refresh token revoked - the player removed Priory on gw2.me - or
 * the account gone) is {@linkcode Gw2meEndedError}: the grant ends and the client must sign in
 * again. gw2.me not answering is {@linkcode Gw2meUnavailableError}: the request is answered 503,
 * and the grant kept for the next try.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { Logger } from "../log.ts";
import type { AuthSecrets } from "./crypto.ts";
import { GW2ME_SCOPES, type Gw2meClient } from "./gw2me_client.ts";
import type { AuthStore, Grant, GrantEntry } from "./store.ts";

/** A subtoken is replaced this long before it expires (a tool call takes at most 15 s). */
export const SUBTOKEN_MARGIN_MS = 2 * 60_000;
/** An access token is refreshed this long before it expires. */
const ACCESS_MARGIN_MS = 60 * 60_000;
/** Subtokens kept in memory at most (one per signed-in gw2.me grant). */
const MEMORY = 10_000;
/** Tries of a grant update that lost its compare-and-set. */
const UPDATE_TRIES = 4;

/** The permissions a subtoken is asked for: those of the scopes Priory asks for. */
export const GW2ME_PERMISSIONS: readonly string[] = GW2ME_SCOPES.map((scope) =>
  scope.slice("gw2:".length)
);

/** gw2.me refused for good: the sign-in is over. */
export class Gw2meEndedError extends Error {
  /** @param why for the log */
  constructor(why: string) {
    super(`gw2.me ended the sign-in: ${why}`);
    this.name = "Gw2meEndedError";
  }
}

/** gw2.me did not answer: try again later. */
export class Gw2meUnavailableError extends Error {
  /** @param why for the log */
  constructor(why: string) {
    super(`gw2.me is unavailable: ${why}`);
    this.name = "Gw2meUnavailableError";
  }
}

/** What the first subtoken of a new gw2.me sign-in was minted with (sealed by the grant). */
export interface Gw2meStart {
  /** The account's id at gw2.me. */
  readonly account: string;
  readonly access: string;
  readonly accessExpiresAt: number;
  readonly subtoken: string;
  readonly subtokenExpiresAt: number;
}

/** Options of {@linkcode Gw2meKeys}. */
export interface Gw2meKeysOptions {
  readonly client: Gw2meClient;
  readonly store: AuthStore;
  readonly secrets: AuthSecrets;
  readonly clock: Clock;
  readonly log: Logger;
  /** How long a grant lives in KV from `now` (its expiry is kept by every write). */
  readonly ttlMs: (grant: Grant, now: number) => number;
}

/** The sealing contexts of a grant's gw2.me tokens: each opens only in its own place. */
export const sealContext = {
  refresh: (id: string) => id,
  access: (id: string) => `${id}/gw2me-access`,
  subtoken: (id: string) => `${id}/gw2me-subtoken`,
} as const;

/** Subtokens for gw2.me grants. One per process. */
export class Gw2meKeys {
  readonly #options: Gw2meKeysOptions;
  readonly #memory = new Map<string, { subtoken: string; expiresAt: number }>();
  readonly #minting = new Map<string, Promise<string>>();

  /** @param options gw2.me, the store, the secrets, the clock, the logger, the grant lifetime */
  constructor(options: Gw2meKeysOptions) {
    this.#options = options;
  }

  /** The sealed fields of a new grant's `gw2me`. */
  async seal(id: string, start: Gw2meStart): Promise<NonNullable<Grant["gw2me"]>> {
    const secrets = this.#options.secrets;
    return {
      account: start.account,
      access: await secrets.seal(start.access, sealContext.access(id)),
      accessExpiresAt: start.accessExpiresAt,
      subtoken: await secrets.seal(start.subtoken, sealContext.subtoken(id)),
      subtokenExpiresAt: start.subtokenExpiresAt,
    };
  }

  /**
   * The subtoken a request of `entry`'s grant calls the GW2 API with.
   *
   * @throws {Gw2meEndedError} when gw2.me ended the sign-in (end the grant).
   * @throws {Gw2meUnavailableError} when gw2.me did not answer.
   */
  async keyFor(entry: GrantEntry): Promise<string> {
    const fresh = this.#usable(entry.grant.id) ?? await this.#stored(entry.grant);
    if (fresh !== undefined) return fresh;
    const id = entry.grant.id;
    let minting = this.#minting.get(id);
    if (minting === undefined) {
      minting = this.#mint(id).finally(() => this.#minting.delete(id));
      this.#minting.set(id, minting);
    }
    return await minting;
  }

  /** Ends the gw2.me side of an ended grant: revokes its refresh and access tokens there. */
  async revoke(grant: Grant): Promise<void> {
    this.#memory.delete(grant.id);
    const gw2me = grant.gw2me;
    if (gw2me === undefined) return;
    const secrets = this.#options.secrets;
    const refresh = await secrets.open(grant.key, sealContext.refresh(grant.id));
    const access = gw2me.access === undefined
      ? undefined
      : await secrets.open(gw2me.access, sealContext.access(grant.id));
    const revoked = await Promise.all(
      [refresh, access].flatMap((token) =>
        token === undefined ? [] : [this.#options.client.revoke(token)]
      ),
    );
    this.#options.log.info("auth gw2me revoked", {
      grant: grant.id,
      confirmed: revoked.filter(Boolean).length,
      of: revoked.length,
    });
  }

  #usable(id: string): string | undefined {
    const known = this.#memory.get(id);
    if (known === undefined) return undefined;
    if (known.expiresAt - SUBTOKEN_MARGIN_MS > this.#options.clock.now()) return known.subtoken;
    this.#memory.delete(id);
    return undefined;
  }

  /** The grant's stored subtoken while it is fresh (another instance may have minted it). */
  async #stored(grant: Grant): Promise<string | undefined> {
    const gw2me = grant.gw2me;
    if (
      gw2me?.subtoken === undefined || gw2me.subtokenExpiresAt === undefined ||
      gw2me.subtokenExpiresAt - SUBTOKEN_MARGIN_MS <= this.#options.clock.now()
    ) return undefined;
    const subtoken = await this.#options.secrets.open(
      gw2me.subtoken,
      sealContext.subtoken(grant.id),
    );
    if (subtoken !== undefined) this.#remember(grant.id, subtoken, gw2me.subtokenExpiresAt);
    return subtoken;
  }

  async #mint(id: string): Promise<string> {
    const { store, secrets, client, clock } = this.#options;
    const entry = await store.grant(id);
    if (entry?.grant.gw2me === undefined) throw new Gw2meEndedError("the grant is gone");
    const stored = await this.#stored(entry.grant);
    if (stored !== undefined) return stored;
    const { grant } = entry;
    const gw2me = entry.grant.gw2me;
    let access = gw2me.access === undefined ||
        (gw2me.accessExpiresAt ?? 0) - ACCESS_MARGIN_MS <= clock.now()
      ? undefined
      : await secrets.open(gw2me.access, sealContext.access(id));
    let refreshed = false;
    const refresh = async (): Promise<string> => {
      const token = await secrets.open(grant.key, sealContext.refresh(id));
      if (token === undefined) throw new Gw2meEndedError("the refresh token cannot be opened");
      const tokens = await client.refresh(token);
      if (!tokens.ok) throw this.#failed("refresh", tokens.kind, tokens.detail);
      refreshed = true;
      // Stored before anything else can fail: the old refresh token no longer works.
      const sealedAccess = await secrets.seal(tokens.access, sealContext.access(id));
      const sealedRefresh = tokens.refresh === undefined
        ? undefined
        : await secrets.seal(tokens.refresh, sealContext.refresh(id));
      await this.#update(id, (current) => ({
        ...current,
        ...(sealedRefresh === undefined ? {} : { key: sealedRefresh }),
        gw2me: {
          ...(current.gw2me ?? gw2me),
          access: sealedAccess,
          accessExpiresAt: tokens.accessExpiresAt,
        },
      }));
      return tokens.access;
    };
    access ??= await refresh();
    let minted = await client.subtoken(access, gw2me.account, GW2ME_PERMISSIONS);
    if (!minted.ok && minted.kind === "unauthorized" && !refreshed) {
      // The access token was replaced or revoked at gw2.me: a refresh tells which.
      minted = await client.subtoken(await refresh(), gw2me.account, GW2ME_PERMISSIONS);
    }
    if (!minted.ok) throw this.#failed("subtoken", minted.kind, minted.detail);
    const sealed = await secrets.seal(minted.subtoken, sealContext.subtoken(id));
    await this.#update(id, (current) => ({
      ...current,
      gw2me: { ...(current.gw2me ?? gw2me), subtoken: sealed, subtokenExpiresAt: minted.expiresAt },
    }));
    this.#remember(id, minted.subtoken, minted.expiresAt);
    this.#options.log.info("auth gw2me subtoken minted", { grant: id, refreshed });
    return minted.subtoken;
  }

  #failed(step: string, kind: "refused" | "unauthorized" | "unavailable", detail: string): Error {
    this.#options.log.info("auth gw2me failed", { step, kind, detail });
    return kind === "unavailable"
      ? new Gw2meUnavailableError(`${step}: ${detail}`)
      : new Gw2meEndedError(`${step}: ${detail}`);
  }

  /** Applies `change` to the stored grant by compare-and-set, keeping its expiry. */
  async #update(id: string, change: (grant: Grant) => Grant): Promise<void> {
    const { store, clock, ttlMs } = this.#options;
    for (let tries = 0; tries < UPDATE_TRIES; tries++) {
      const entry = await store.grant(id);
      if (entry === undefined) throw new Gw2meEndedError("the grant ended meanwhile");
      const next = change(entry.grant);
      if (await store.replace(entry, next, ttlMs(next, clock.now()))) return;
    }
    throw new Gw2meUnavailableError("the grant kept changing; retry");
  }

  #remember(id: string, subtoken: string, expiresAt: number): void {
    if (this.#memory.size >= MEMORY) {
      const oldest = this.#memory.keys().next();
      if (oldest.done !== true) this.#memory.delete(oldest.value);
    }
    this.#memory.set(id, { subtoken, expiresAt });
  }
}
