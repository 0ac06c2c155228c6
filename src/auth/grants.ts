/**
 * Grants and their tokens: a player's sign-in from one app, from the code the consent page
 * issues to the refresh tokens that keep it alive and the revocation that ends it.
 *
 * A code, an access token and a refresh token are each `<kind>.<grant id>.<secret>`: the id says
 * which grant to read (one KV read), the 256-bit secret is what proves possession, and only its
 * SHA-256 digest is stored. The rules (OAuth 2.1, RFC 6749, 7636, 8707, 7009):
 * - a code lives at most {@linkcode CODE_TTL_MS}, is exchanged once, with the PKCE verifier, the
 *   same client, redirect URI and resource; a code presented again - after its exchange, or
 *   during it, on this instance or another - ends the grant, since whoever holds a copy may have
 *   used it first;
 * - access tokens live {@linkcode ACCESS_TTL_S} and name the resource they were issued for;
 * - refresh tokens rotate: each use returns a new one. The one before stays usable for
 *   {@linkcode REFRESH_GRACE_MS} after the rotation, and only until one of its successors is first
 *   used - a client that lost the answer can try again, and refreshes that raced (two instances,
 *   one token) each get a successor - and that first use retires the others; a retired token
 *   presented, or the one before past its grace - a replay after rotation - ends the grant;
 * - a grant not refreshed for {@linkcode GRANT_IDLE_MS} expires; revoking either token (a
 *   retired one too) ends it; either way its sealed key is deleted with it;
 * - one GW2 account keeps at most {@linkcode MAX_ACCOUNT_GRANTS} grants (a new one ends the least
 *   recently used past that) and starts at most {@linkcode GRANT_STARTS_BURST} at once, then one
 *   per {@linkcode GRANT_START_EVERY_MS}: one free key cannot fill the database;
 * - every way a grant ends - revocation, expiry found on use, a replay, a sign-out, an eviction,
 *   a key GW2 rejects - goes through one private function (behind {@linkcode Grants.revokeGrant}
 *   too), which deletes the record and its index entry together and then tells
 *   {@linkcode GrantsOptions.onEnded};
 * - no token is issued for a grant whose key the current `PRIORY_SECRET` cannot open (the secret
 *   was rotated): the exchange or refresh is `invalid_grant`, so the client signs in again, and
 *   the grant goes.
 *
 * Checking an access token on every MCP request costs a KV read and a decryption; a checked
 * token is kept in memory for {@linkcode ACCESS_CHECK_MS}, so a warm call pays neither. A grant
 * revoked here is dropped from that memory at once; one revoked on another instance stops
 * working there within that time.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { describeError, type Logger } from "../log.ts";
import { CallRate } from "./call_rate.ts";
import { type AuthSecrets, digest, pkceMatches, randomId, sameText } from "./crypto.ts";
import { Gw2meEndedError, type Gw2meKeys, type Gw2meStart } from "./gw2me_keys.ts";
import type { AccountGrant, AuthStore, Grant, GrantEntry } from "./store.ts";

export type { AccountGrant, Grant } from "./store.ts";

/** How long a code may wait for its exchange (the contract's bound is 10 minutes). */
export const CODE_TTL_MS = 5 * 60_000;
/** Access token lifetime, seconds (the contract's bound is 3,600). */
export const ACCESS_TTL_S = 3_600;
/** A grant not refreshed for this long expires, and its key with it. */
export const GRANT_IDLE_MS = 90 * 24 * 3_600_000;
/** How long a checked access token is trusted from memory before KV is read again. */
export const ACCESS_CHECK_MS = 5_000;
/**
 * How long the refresh token before the newest stays usable after its rotation: long enough for
 * a client to retry a refresh whose answer it lost, short enough that a stolen copy is soon a
 * replay. RFC 9700 §4.14.2 asks for refresh token rotation with replay detection; 60 s is the
 * longest this grace may be.
 */
export const REFRESH_GRACE_MS = 60_000;
/** Live grants of one GW2 account at most; a new one ends the least recently used past it. */
export const MAX_ACCOUNT_GRANTS = 20;
/** Grants one GW2 account may start at once after a pause. */
export const GRANT_STARTS_BURST = 10;
/** Past the burst, one more grant start per this many milliseconds (ten an hour). */
export const GRANT_START_EVERY_MS = 6 * 60_000;
/** Rotated refresh tokens remembered per grant, to recognise a replay. */
const RETIRED_REFRESH = 16;
/** Unused successors of one refresh token kept usable at once (retries, races). */
const REFRESH_SIBLINGS = 4;
/** Tries of a refresh that lost the grant's compare-and-set to a concurrent one. */
const REFRESH_TRIES = 3;
/** Checked access tokens kept in memory at most. */
const ACCESS_MEMORY = 10_000;

/** The token endpoint's errors (RFC 6749 §5.2, RFC 8707 §2). */
export type TokenErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "invalid_target"
  | "unsupported_grant_type";

/** A refusal with its RFC error code and a description for the client's developer. */
export interface TokenFailure {
  readonly ok: false;
  readonly error: TokenErrorCode;
  readonly description: string;
}

/** A token response (RFC 6749 §5.1). */
export interface TokenSuccess {
  readonly ok: true;
  readonly body: {
    readonly access_token: string;
    readonly token_type: "Bearer";
    readonly expires_in: number;
    readonly refresh_token: string;
  };
}

/** What a valid access token stands for on one request. */
export class SignedInPlayer {
  /** @param grantId the grant; @param owner the player's pseudonym; @param key the GW2 key */
  constructor(
    readonly grantId: string,
    readonly clientId: string,
    readonly owner: string,
    readonly key: string,
    readonly resource: string,
    /** Seconds since the epoch when the access token expires. */
    readonly expiresAt: number,
  ) {}
}

/** What the consent page hands over once a player allowed and their key checked out. */
export interface NewGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  readonly resource: string;
  /** The GW2 key, in the clear: sealed here and never stored otherwise (gw2.me: its refresh token). */
  readonly key: string;
  /** The GW2 account name: only its pseudonym is kept. */
  readonly account: string;
  readonly permissions: readonly string[];
  /** A gw2.me sign-in: what its first subtoken was minted with. */
  readonly gw2me?: Gw2meStart;
}

/** What a code exchange presents. */
export interface CodeExchange {
  readonly code: string;
  readonly clientId: string;
  readonly redirectUri: string | undefined;
  readonly verifier: string | undefined;
  readonly resource: string | undefined;
}

/** Options of {@linkcode Grants}. */
export interface GrantsOptions {
  readonly store: AuthStore;
  readonly secrets: AuthSecrets;
  readonly clock: Clock;
  readonly log: Logger;
  /** The one resource tokens are issued for (`<PUBLIC_URL>/mcp`). */
  readonly resource: string;
  /** The subtokens of gw2.me sign-ins, when the operator configured gw2.me. */
  readonly gw2me?: Gw2meKeys;
  /**
   * Told after every grant that ends (its record and sealed key already deleted), with the
   * grant as it was and why: where a grant's other side is ended too (an upstream sign-in's
   * refresh token revoked there). Its failures are logged, never thrown.
   */
  readonly onEnded?: (grant: Grant, why: string) => Promise<void>;
}

/** The outcome of {@linkcode Grants.begin}. */
export type GrantStart =
  | { readonly ok: true; readonly code: string }
  | {
    readonly ok: false;
    /** The account started too many grants just now: milliseconds until it may again. */
    readonly retryAfterMs: number;
  };

type TokenKind = "pmc" | "pma" | "pmr";

interface Cached {
  readonly player: SignedInPlayer;
  readonly checkedAt: number;
}

/** The grant rules over the store. One per process. */
export class Grants {
  readonly #store: AuthStore;
  readonly #secrets: AuthSecrets;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #resource: string;
  readonly #gw2me: Gw2meKeys | undefined;
  readonly #onEnded: ((grant: Grant, why: string) => Promise<void>) | undefined;
  readonly #checked = new Map<string, Cached>();
  /** Grant starts per account, in this process's memory (as the call rate is). */
  readonly #starts: CallRate;

  /** @param options store, secrets, clock, logger, resource and the end hook */
  constructor(options: GrantsOptions) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#resource = options.resource;
    this.#gw2me = options.gw2me;
    this.#onEnded = options.onEnded;
    this.#starts = new CallRate({
      burst: GRANT_STARTS_BURST,
      perMinute: 60_000 / GRANT_START_EVERY_MS,
      clock: options.clock,
    });
  }

  /**
   * Creates a grant whose code awaits exchange; returns the code (only its digest is stored), or
   * a refusal when the account started too many grants just now. Past
   * {@linkcode MAX_ACCOUNT_GRANTS} live grants of the account, the least recently used end.
   */
  async begin(request: NewGrant): Promise<GrantStart> {
    const owner = await this.#secrets.pseudonym(request.account);
    const waitMs = this.#starts.take(owner, 1);
    if (waitMs > 0) {
      this.#log.info("auth grant refused", { reason: "account started too many" });
      return { ok: false, retryAfterMs: waitMs };
    }
    const id = randomId(18);
    const secret = randomId();
    const now = this.#clock.now();
    const grant: Grant = {
      id,
      clientId: request.clientId,
      owner,
      key: await this.#secrets.seal(request.key, id),
      permissions: [...request.permissions],
      resource: request.resource,
      createdAt: now,
      renewedAt: now,
      code: {
        digest: await digest(secret),
        challenge: request.challenge,
        redirectUri: request.redirectUri,
        expiresAt: now + CODE_TTL_MS,
        used: false,
      },
      access: [],
      ...(request.gw2me === undefined ? {} : { gw2me: await this.#sealGw2me(id, request.gw2me) }),
    };
    if (!(await this.#store.create(grant, CODE_TTL_MS + 60_000))) {
      throw new Error("Cannot store the grant: its random id is taken");
    }
    this.#log.info("auth grant started", { grant: id, client: clientLabel(request.clientId) });
    await this.#evictPast(owner, id);
    return { ok: true, code: tokenOf("pmc", id, secret) };
  }

  /**
   * The live grants of a GW2 account (`account`: its name, as `/v2/account` gives it), least
   * recently used first.
   */
  async liveGrants(account: string): Promise<AccountGrant[]> {
    return await this.#liveGrantsOf(await this.#secrets.pseudonym(account));
  }

  /**
   * Ends every grant of a GW2 account (`account`: its name) and deletes their sealed keys; how
   * many it ended. Each goes through {@linkcode Grants.revokeGrant}'s one way out.
   *
   * @example
   * ```ts
   * const ended = await grants.endAccountGrants(check.account, "signed out");
   * ```
   */
  async endAccountGrants(account: string, why = "signed out"): Promise<number> {
    const owner = await this.#secrets.pseudonym(account);
    let ended = 0;
    for (const listed of await this.#liveGrantsOf(owner)) {
      if (await this.revokeGrant(listed.id, why)) ended++;
    }
    return ended;
  }

  async #liveGrantsOf(owner: string): Promise<AccountGrant[]> {
    const now = this.#clock.now();
    const listed = await this.#store.accountGrants(owner);
    return listed.filter((grant) => now - grant.renewedAt <= GRANT_IDLE_MS)
      .sort((a, b) => a.renewedAt - b.renewedAt || a.createdAt - b.createdAt);
  }

  /** Ends the least recently used grants of `owner` past the cap, never `keep` (the new one). */
  async #evictPast(owner: string, keep: string): Promise<void> {
    const live = await this.#liveGrantsOf(owner);
    const excess = live.length - MAX_ACCOUNT_GRANTS;
    if (excess <= 0) return;
    const oldest = live.filter((grant) => grant.id !== keep).slice(0, excess);
    for (const grant of oldest) {
      await this.revokeGrant(grant.id, `over ${MAX_ACCOUNT_GRANTS} sign-ins of one account`);
    }
  }

  /** The `authorization_code` grant. */
  async exchangeCode(exchange: CodeExchange): Promise<TokenSuccess | TokenFailure> {
    const parsed = parseToken(exchange.code, "pmc");
    if (exchange.verifier === undefined) {
      return failure("invalid_request", "code_verifier is required (PKCE S256)");
    }
    if (exchange.redirectUri === undefined) {
      return failure("invalid_request", "redirect_uri is required");
    }
    const entry = parsed === undefined ? undefined : await this.#store.grant(parsed.id);
    if (parsed === undefined || entry === undefined) {
      return failure("invalid_grant", "the code is unknown, expired or already used");
    }
    const { grant } = entry;
    if (!sameText(await digest(parsed.secret), grant.code.digest)) {
      return failure("invalid_grant", "the code is unknown, expired or already used");
    }
    if (grant.code.used) {
      // A second use: a copy of the code is abroad. End the grant and what it issued.
      await this.#end(grant, "code reused");
      return failure("invalid_grant", "the code was already used; the sign-in is revoked");
    }
    if (this.#clock.now() > grant.code.expiresAt) {
      await this.#end(grant, "code expired");
      return failure("invalid_grant", "the code has expired; sign in again");
    }
    if (exchange.clientId !== grant.clientId) {
      return failure("invalid_grant", "the code was issued to another client");
    }
    if (exchange.redirectUri !== grant.code.redirectUri) {
      return failure("invalid_grant", "redirect_uri is not the one the code was issued for");
    }
    if (!(await pkceMatches(exchange.verifier, grant.code.challenge))) {
      return failure("invalid_grant", "code_verifier does not match the code_challenge");
    }
    const target = this.#checkResource(exchange.resource, grant.resource);
    if (target !== undefined) return target;
    const issued = await this.#issue(entry, { ...grant, code: { ...grant.code, used: true } });
    if (issued !== undefined) return issued;
    // Another exchange of this code won the compare-and-set: the code was used twice at once,
    // a reuse like any other (whoever won may hold a stolen copy).
    await this.revokeGrant(grant.id, "code reused");
    return failure("invalid_grant", "the code was already used; the sign-in is revoked");
  }

  /**
   * The `refresh_token` grant: rotates the refresh token. One that lost the grant's
   * compare-and-set to a concurrent refresh reads the grant again and goes on, as a client
   * retrying would: its token is now the predecessor, and gets a successor of its own.
   */
  async refresh(
    token: string,
    clientId: string,
    resource: string | undefined,
  ): Promise<TokenSuccess | TokenFailure> {
    const parsed = parseToken(token, "pmr");
    if (parsed === undefined) {
      return failure("invalid_grant", "the refresh token is unknown, expired or revoked");
    }
    const presented = await digest(parsed.secret);
    for (let tries = 0; tries < REFRESH_TRIES; tries++) {
      const entry = await this.#store.grant(parsed.id);
      const outcome = await this.#refreshOnce(entry, presented, clientId, resource);
      if (outcome !== undefined) return outcome;
    }
    return failure("invalid_grant", "the grant changed while this request was served; retry");
  }

  /** One try of {@linkcode Grants.refresh}; `undefined` when another request changed the grant. */
  async #refreshOnce(
    entry: GrantEntry | undefined,
    presented: string,
    clientId: string,
    resource: string | undefined,
  ): Promise<TokenSuccess | TokenFailure | undefined> {
    if (entry === undefined || entry.grant.refresh === undefined) {
      return failure("invalid_grant", "the refresh token is unknown, expired or revoked");
    }
    const { grant } = entry;
    if (this.#clock.now() - grant.renewedAt > GRANT_IDLE_MS) {
      // KV expires the record on its own; this makes the 90 days exact.
      await this.#end(grant, "unused for 90 days");
      return failure("invalid_grant", "the sign-in expired after 90 days unused; sign in again");
    }
    const refresh = entry.grant.refresh;
    const now = this.#clock.now();
    const isPrevious = refresh.previous !== undefined && sameText(refresh.previous, presented);
    // Grants rotated before the grace was recorded count it from their last rotation.
    const previousUntil = refresh.previousUntil ?? grant.renewedAt + REFRESH_GRACE_MS;
    if (
      refresh.retired.some((old) => sameText(old, presented)) ||
      (isPrevious && now > previousUntil)
    ) {
      // A refresh token used after its successor was, or past its grace: a copy is abroad.
      await this.#end(grant, "refresh token replayed");
      return failure("invalid_grant", "the refresh token was already used; the sign-in is revoked");
    }
    // Oldest first: the siblings, then the newest.
    const successors = [...(refresh.siblings ?? []), refresh.current];
    const isSuccessor = successors.some((value) => sameText(value, presented));
    if (!isSuccessor && !isPrevious) {
      return failure("invalid_grant", "the refresh token is unknown, expired or revoked");
    }
    if (clientId !== grant.clientId) {
      return failure("invalid_grant", "the refresh token was issued to another client");
    }
    const target = this.#checkResource(resource, grant.resource);
    if (target !== undefined) return target;
    // The first use of a successor retires its predecessor and the other successors. The
    // predecessor used again (an answer lost, refreshes that raced) issues one more successor
    // beside the unused ones; past the bound the oldest of them retires.
    const others = successors.filter((value) => !sameText(value, presented));
    const retiring = isSuccessor
      ? [...(refresh.previous === undefined ? [] : [refresh.previous]), ...others]
      : successors.slice(0, -(REFRESH_SIBLINGS - 1));
    // The grace runs from the rotation that made `presented` the one before; a retry of the one
    // before does not extend it.
    return await this.#issue(entry, grant, {
      previous: presented,
      previousUntil: isSuccessor ? now + REFRESH_GRACE_MS : previousUntil,
      siblings: isSuccessor ? [] : successors.slice(-(REFRESH_SIBLINGS - 1)),
      retired: [...refresh.retired, ...retiring].slice(-RETIRED_REFRESH),
    });
  }

  /**
   * RFC 7009: revokes the grant `token` (an access or refresh token) belongs to - a refresh
   * token already rotated out included: whoever presents it held the sign-in, and a client that
   * revokes the token it has asks for the sign-in to end. An unknown, expired or malformed token
   * is not an error (the client's goal is met). `false` when the token belongs to another client
   * than the one named.
   */
  async revoke(token: string, clientId: string | undefined): Promise<boolean> {
    const parsed = parseToken(token, "pma") ?? parseToken(token, "pmr");
    if (parsed === undefined) return true;
    const entry = await this.#store.grant(parsed.id);
    if (entry === undefined) return true;
    const presented = await digest(parsed.secret);
    const { grant } = entry;
    const refresh = grant.refresh;
    const known = grant.access.some((access) => sameText(access.digest, presented)) ||
      (refresh !== undefined &&
        [refresh.current, refresh.previous, ...(refresh.siblings ?? []), ...refresh.retired].some(
          (value) => value !== undefined && sameText(value, presented),
        ));
    if (!known) return true;
    if (clientId !== undefined && clientId !== grant.clientId) return false;
    await this.#end(grant, "revoked by the client");
    return true;
  }

  /**
   * Ends the grant `id`: its record, its sealed key and every token it issued. False when there
   * was none (already ended, or expired).
   */
  async revokeGrant(id: string, why: string): Promise<boolean> {
    const entry = await this.#store.grant(id);
    if (entry === undefined) return false;
    await this.#end(entry.grant, why);
    return true;
  }

  /**
   * The one way a grant ends: forgotten from memory, deleted from KV with its index entry, then
   * {@linkcode GrantsOptions.onEnded} told.
   */
  async #end(grant: Grant, why: string): Promise<void> {
    for (const [token, cached] of this.#checked) {
      if (cached.player.grantId === grant.id) this.#checked.delete(token);
    }
    await this.#store.delete(grant);
    this.#log.info("auth grant ended", { grant: grant.id, why });
    if (this.#onEnded === undefined) return;
    try {
      await this.#onEnded(grant, why);
    } catch (error) {
      this.#log.warn("auth grant end hook failed", {
        grant: grant.id,
        error: describeError(error),
      });
    }
  }

  /**
   * The player an access token stands for, or `undefined` when it is unknown, expired or its
   * grant ended (or its key cannot be opened: the secret changed). The resource is not checked
   * here; the caller compares it.
   */
  async verifyAccess(token: string): Promise<SignedInPlayer | undefined> {
    const now = this.#clock.now();
    const cached = this.#checked.get(token);
    if (cached !== undefined) {
      if (now - cached.checkedAt < ACCESS_CHECK_MS && cached.player.expiresAt * 1000 > now) {
        return cached.player;
      }
      this.#checked.delete(token);
    }
    const parsed = parseToken(token, "pma");
    if (parsed === undefined) return undefined;
    const entry = await this.#store.grant(parsed.id);
    if (entry === undefined || now - entry.grant.renewedAt > GRANT_IDLE_MS) return undefined;
    const presented = await digest(parsed.secret);
    const access = entry.grant.access.find((item) => sameText(item.digest, presented));
    if (access === undefined || access.expiresAt <= now) return undefined;
    const key = await this.#keyOf(entry);
    if (key === undefined) {
      this.#log.warn("auth grant key cannot be opened (was PRIORY_SECRET changed?)", {
        grant: entry.grant.id,
      });
      return undefined;
    }
    const player = new SignedInPlayer(
      entry.grant.id,
      entry.grant.clientId,
      entry.grant.owner,
      key,
      entry.grant.resource,
      Math.floor(access.expiresAt / 1000),
    );
    if (this.#checked.size >= ACCESS_MEMORY) {
      const oldest = this.#checked.keys().next();
      if (oldest.done !== true) this.#checked.delete(oldest.value);
    }
    this.#checked.set(token, { player, checkedAt: now });
    return player;
  }

  /**
   * The GW2 key a grant's calls use: its own, opened; for a gw2.me sign-in a subtoken minted from
   * its gw2.me tokens (a sign-in gw2.me ended ends here too). `undefined` when it cannot be
   * opened. Throws `Gw2meUnavailableError` when gw2.me does not answer.
   */
  async #keyOf(entry: GrantEntry): Promise<string | undefined> {
    const { grant } = entry;
    if (grant.gw2me === undefined) return await this.#secrets.open(grant.key, grant.id);
    if (this.#gw2me === undefined) return undefined;
    try {
      return await this.#gw2me.keyFor(entry);
    } catch (error) {
      if (!(error instanceof Gw2meEndedError)) throw error;
      await this.#end(grant, error.message);
      return undefined;
    }
  }

  async #sealGw2me(id: string, start: Gw2meStart): Promise<NonNullable<Grant["gw2me"]>> {
    if (this.#gw2me === undefined) throw new Error("Cannot keep a gw2.me sign-in: gw2.me is off");
    return await this.#gw2me.seal(id, start);
  }

  /** `invalid_target` unless `requested` (when given) is the grant's resource. */
  #checkResource(requested: string | undefined, granted: string): TokenFailure | undefined {
    if (requested === undefined || sameResource(requested, granted)) return undefined;
    return failure("invalid_target", `this server issues tokens only for ${this.#resource}`);
  }

  /**
   * Issues an access token and a rotated refresh token, if `entry` is still as read; `undefined`
   * when another request changed the grant first.
   */
  async #issue(
    entry: GrantEntry,
    grant: Grant,
    rotation: {
      previous?: string;
      previousUntil?: number;
      siblings?: readonly string[];
      retired: readonly string[];
    } = { retired: [] },
  ): Promise<TokenSuccess | TokenFailure | undefined> {
    if ((await this.#secrets.open(grant.key, grant.id)) === undefined) {
      // Sealed under a PRIORY_SECRET this server no longer has: every token issued would be
      // refused on use, so the client is told to sign in again, and the key under the old
      // secret (perhaps a leaked one) is deleted rather than kept until the grant expires.
      await this.#end(grant, "key sealed under another secret");
      return failure(
        "invalid_grant",
        "the server's secret changed since this sign-in; sign in again",
      );
    }
    const now = this.#clock.now();
    const access = randomId();
    const refresh = randomId();
    const accessDigest = await digest(access);
    const kept = grant.access.filter((item) => item.expiresAt > now).slice(-1);
    const next: Grant = {
      ...grant,
      renewedAt: now,
      access: [...kept, { digest: accessDigest, expiresAt: now + ACCESS_TTL_S * 1000 }],
      refresh: {
        current: await digest(refresh),
        ...(rotation.siblings === undefined || rotation.siblings.length === 0
          ? {}
          : { siblings: [...rotation.siblings] }),
        ...(rotation.previous === undefined ? {} : { previous: rotation.previous }),
        ...(rotation.previousUntil === undefined ? {} : { previousUntil: rotation.previousUntil }),
        retired: [...rotation.retired],
      },
    };
    let stored: boolean;
    try {
      stored = await this.#store.replace(entry, next, GRANT_IDLE_MS);
    } catch (error) {
      this.#log.error("auth grant could not be stored", { error: describeError(error) });
      throw error;
    }
    if (!stored) return undefined;
    return {
      ok: true,
      body: {
        access_token: tokenOf("pma", grant.id, access),
        token_type: "Bearer",
        expires_in: ACCESS_TTL_S,
        refresh_token: tokenOf("pmr", grant.id, refresh),
      },
    };
  }
}

/**
 * How long a grant has left in KV from `now`: a grant whose code awaits exchange lives a minute
 * past the code; then {@linkcode GRANT_IDLE_MS} from its last refresh. Writes that do not renew a
 * grant keep this, so they never lengthen its life.
 */
export function grantTtlMs(grant: Grant, now: number): number {
  const end = grant.refresh === undefined
    ? grant.code.expiresAt + 60_000
    : grant.renewedAt + GRANT_IDLE_MS;
  return Math.max(1_000, end - now);
}

/** Compares resource identifiers as RFC 8707 clients send them: a trailing slash aside. */
export function sameResource(a: string, b: string): boolean {
  return a.replace(/\/$/, "") === b.replace(/\/$/, "");
}

function tokenOf(kind: TokenKind, id: string, secret: string): string {
  return `${kind}.${id}.${secret}`;
}

function parseToken(token: string, kind: TokenKind): { id: string; secret: string } | undefined {
  const match = /^([a-z]{3})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (match === null || match[1] !== kind) return undefined;
  const [, , id = "", secret = ""] = match;
  return { id, secret };
}

function failure(error: TokenErrorCode, description: string): TokenFailure {
  return { ok: false, error, description };
}

/** A client id for the log: a metadata document's URL as it is, a registered one shortened. */
export function clientLabel(clientId: string): string {
  return clientId.startsWith("https://") ? clientId : `${clientId.slice(0, 12)}\u2026`;
}
