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
 * - refresh tokens rotate: each use returns a new one. The one before stays usable until one of
 *   its successors is first used - a client that lost the answer can try again, and refreshes
 *   that raced (two instances, one token) each get a successor - and that first use retires the
 *   others; a retired token presented - a replay after rotation - ends the grant;
 * - a grant not refreshed for {@linkcode GRANT_IDLE_MS} expires; revoking either token ends it;
 *   either way its sealed key is deleted with it;
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
import { type AuthSecrets, digest, pkceMatches, randomId, sameText } from "./crypto.ts";
import { Gw2meEndedError, type Gw2meKeys, type Gw2meStart } from "./gw2me_keys.ts";
import type { AuthStore, Grant, GrantEntry } from "./store.ts";

/** How long a code may wait for its exchange (the contract's bound is 10 minutes). */
export const CODE_TTL_MS = 5 * 60_000;
/** Access token lifetime, seconds (the contract's bound is 3,600). */
export const ACCESS_TTL_S = 3_600;
/** A grant not refreshed for this long expires, and its key with it. */
export const GRANT_IDLE_MS = 90 * 24 * 3_600_000;
/** How long a checked access token is trusted from memory before KV is read again. */
export const ACCESS_CHECK_MS = 5_000;
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
}

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
  readonly #checked = new Map<string, Cached>();

  /** @param options store, secrets, clock, logger and resource */
  constructor(options: GrantsOptions) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#resource = options.resource;
    this.#gw2me = options.gw2me;
  }

  /** Creates a grant whose code awaits exchange; returns the code (only its digest is stored). */
  async begin(request: NewGrant): Promise<string> {
    const id = randomId(18);
    const secret = randomId();
    const now = this.#clock.now();
    const grant: Grant = {
      id,
      clientId: request.clientId,
      owner: await this.#secrets.pseudonym(request.account),
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
    return tokenOf("pmc", id, secret);
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
      await this.revokeGrant(grant.id, "code reused");
      return failure("invalid_grant", "the code was already used; the sign-in is revoked");
    }
    if (this.#clock.now() > grant.code.expiresAt) {
      await this.revokeGrant(grant.id, "code expired");
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
      await this.revokeGrant(grant.id, "unused for 90 days");
      return failure("invalid_grant", "the sign-in expired after 90 days unused; sign in again");
    }
    const refresh = entry.grant.refresh;
    if (refresh.retired.some((old) => sameText(old, presented))) {
      // A refresh token used after its successor was: a copy is abroad. End the grant.
      await this.revokeGrant(grant.id, "refresh token replayed");
      return failure("invalid_grant", "the refresh token was already used; the sign-in is revoked");
    }
    // Oldest first: the siblings, then the newest.
    const successors = [...(refresh.siblings ?? []), refresh.current];
    const isSuccessor = successors.some((value) => sameText(value, presented));
    const isPrevious = refresh.previous !== undefined && sameText(refresh.previous, presented);
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
    return await this.#issue(entry, grant, {
      previous: presented,
      siblings: isSuccessor ? [] : successors.slice(-(REFRESH_SIBLINGS - 1)),
      retired: [...refresh.retired, ...retiring].slice(-RETIRED_REFRESH),
    });
  }

  /**
   * RFC 7009: revokes the grant `token` (an access or refresh token) belongs to. An unknown,
   * expired or malformed token is not an error (the client's goal is met). `false` when the
   * token belongs to another client than the one named.
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
        [refresh.current, refresh.previous, ...(refresh.siblings ?? [])].some((value) =>
          value !== undefined && sameText(value, presented)
        ));
    if (!known) return true;
    if (clientId !== undefined && clientId !== grant.clientId) return false;
    await this.revokeGrant(grant.id, "revoked by the client");
    return true;
  }

  /**
   * Ends a grant: its record, its sealed key and every token it issued - and, for a gw2.me
   * sign-in, its tokens at gw2.me (revoked after the record is gone, so a slow gw2.me delays the
   * answer but never keeps the grant alive).
   */
  async revokeGrant(id: string, why: string): Promise<void> {
    for (const [token, cached] of this.#checked) {
      if (cached.player.grantId === id) this.#checked.delete(token);
    }
    const ended = this.#gw2me === undefined ? undefined : await this.#store.grant(id);
    await this.#store.delete(id);
    this.#log.info("auth grant ended", { grant: id, why });
    if (ended?.grant.gw2me !== undefined) await this.#gw2me?.revoke(ended.grant);
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
      await this.revokeGrant(grant.id, error.message);
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
      siblings?: readonly string[];
      retired: readonly string[];
    } = { retired: [] },
  ): Promise<TokenSuccess | TokenFailure | undefined> {
    if ((await this.#secrets.open(grant.key, grant.id)) === undefined) {
      // Sealed under a PRIORY_SECRET this server no longer has: every token issued would be
      // refused on use, so the client is told to sign in again, and the key under the old
      // secret (perhaps a leaked one) is deleted rather than kept until the grant expires.
      await this.revokeGrant(grant.id, "key sealed under another secret");
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
