/**
 * Where the public mode keeps state, in Deno KV: one record per grant (a player's sign-in from
 * one app) and the used consent forms. A grant holds the player's GW2 key sealed under the
 * server's secret, and its code and tokens only as SHA-256 digests; nothing in KV is readable as
 * a key or usable as a token. A grant expires by itself (KV `expireIn`): its code's ten minutes
 * until the code is exchanged, then 90 days from its last refresh. Every write that moves a grant
 * forward is a compare-and-set on the entry read, so a code or refresh token is used once even
 * when two requests race. Every KV call is bounded (`src/kv/timeout.ts`).
 *
 * @module
 */

import { z } from "zod";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../kv/timeout.ts";

const Digest = z.string().min(16).max(128);
const Sealed = z.object({ iv: z.string(), data: z.string() });

const GrantSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  /** The player: a pseudonym of the GW2 account (the grant's identity). */
  owner: z.string(),
  /** The player's GW2 key, sealed; for a gw2.me sign-in, gw2.me's refresh token. */
  key: Sealed,
  permissions: z.array(z.string()),
  resource: z.string(),
  createdAt: z.number(),
  /** Last time tokens were issued: the grant lives 90 days past it. */
  renewedAt: z.number(),
  code: z.object({
    digest: Digest,
    challenge: z.string(),
    redirectUri: z.string(),
    expiresAt: z.number(),
    used: z.boolean(),
  }),
  access: z.array(z.object({ digest: Digest, expiresAt: z.number() })),
  refresh: z.object({
    /** The newest refresh token. */
    current: Digest,
    /** Older successors of `previous`, all unused (its answer lost, or refreshes that raced). */
    siblings: z.array(Digest).optional(),
    /** The token `current` was issued for; usable until one of its successors is used. */
    previous: Digest.optional(),
    retired: z.array(Digest),
  }).optional(),
  /** A gw2.me sign-in: its account there, and the access token and subtoken last minted. */
  gw2me: z.object({
    account: z.string(),
    access: Sealed.optional(),
    accessExpiresAt: z.number().optional(),
    subtoken: Sealed.optional(),
    subtokenExpiresAt: z.number().optional(),
  }).optional(),
});

/** A stored grant. */
export type Grant = z.infer<typeof GrantSchema>;

/** A grant as read, with what a later compare-and-set checks. */
export interface GrantEntry {
  readonly grant: Grant;
  readonly versionstamp: string;
}

/** The KV operations of the public mode. */
export class AuthStore {
  readonly #kv: Deno.Kv;
  readonly #timeout: KvTimeout;

  /** @param kv the process's KV; @param timeout the bound of each call */
  constructor(kv: Deno.Kv, timeout: KvTimeout = DEFAULT_KV_TIMEOUT) {
    this.#kv = kv;
    this.#timeout = timeout;
  }

  /** The grant `id`, or `undefined` (never issued, expired, revoked, or unreadable). */
  async grant(id: string): Promise<GrantEntry | undefined> {
    const entry = await withKvTimeout(this.#timeout, () => this.#kv.get(grantKey(id)));
    if (entry.versionstamp === null) return undefined;
    const parsed = GrantSchema.safeParse(entry.value);
    return parsed.success ? { grant: parsed.data, versionstamp: entry.versionstamp } : undefined;
  }

  /** Stores a new grant for `ttlMs`; false when the id is taken (never, for random ids). */
  create(grant: Grant, ttlMs: number): Promise<boolean> {
    return this.#setIf(grantKey(grant.id), null, grant, ttlMs);
  }

  /** Replaces a grant if it is unchanged since `entry` was read; false when it was not. */
  replace(entry: GrantEntry, grant: Grant, ttlMs: number): Promise<boolean> {
    return this.#setIf(grantKey(grant.id), entry.versionstamp, grant, ttlMs);
  }

  /** Deletes a grant, and with it the sealed key. */
  async delete(id: string): Promise<void> {
    await withKvTimeout(this.#timeout, () => this.#kv.delete(grantKey(id)));
  }

  /**
   * Marks a consent form used: true the first time for `nonce`, false for a replay. Kept for
   * `ttlMs` (longer than a form lives).
   */
  useNonce(nonce: string, ttlMs: number): Promise<boolean> {
    return this.#setIf(["auth", "consent", nonce], null, true, ttlMs);
  }

  /** Whether a form's `nonce` was used (a form sent again, told apart from a forged one). */
  async nonceUsed(nonce: string): Promise<boolean> {
    const entry = await withKvTimeout(
      this.#timeout,
      () => this.#kv.get(["auth", "consent", nonce]),
    );
    return entry.versionstamp !== null;
  }

  /** Sets `key` for `ttlMs` if its versionstamp is still `versionstamp` (`null`: absent). */
  async #setIf(
    key: Deno.KvKey,
    versionstamp: string | null,
    value: unknown,
    ttlMs: number,
  ): Promise<boolean> {
    const result = await withKvTimeout(
      this.#timeout,
      () =>
        this.#kv.atomic().check({ key, versionstamp }).set(key, value, { expireIn: ttlMs })
          .commit(),
    );
    return result.ok;
  }
}

function grantKey(id: string): Deno.KvKey {
  return ["auth", "grant", id];
}
