/**
 * Where the public mode keeps state, in Deno KV: one record per grant (a player's sign-in from
 * one app), an index of each GW2 account's grants (`["auth", "account", owner, grant id]`, written
 * and deleted in the same atomic commit as the grant, with the same expiry, so it never outlives
 * it), and the used consent forms. A grant holds the player's GW2 key sealed under the
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
    /**
     * The token `current` was issued for; usable until one of its successors is used, and not
     * past `previousUntil`.
     */
    previous: Digest.optional(),
    /** When `previous` stops being usable (epoch ms); older records: their last renewal + 60 s. */
    previousUntil: z.number().optional(),
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

/** One grant of an account, as its index lists it. */
const AccountGrantSchema = z.object({
  clientId: z.string(),
  createdAt: z.number(),
  renewedAt: z.number(),
});

/** A live grant of one account: what the account index keeps of it. */
export interface AccountGrant extends z.infer<typeof AccountGrantSchema> {
  readonly id: string;
}

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

  /**
   * Stores a new grant and its account index entry for `ttlMs`; false when the id is taken
   * (never, for random ids).
   */
  create(grant: Grant, ttlMs: number): Promise<boolean> {
    return this.#write(grant, null, ttlMs);
  }

  /**
   * Replaces a grant (and renews its index entry) if it is unchanged since `entry` was read;
   * false when it was not.
   */
  replace(entry: GrantEntry, grant: Grant, ttlMs: number): Promise<boolean> {
    return this.#write(grant, entry.versionstamp, ttlMs);
  }

  /** Deletes a grant - and with it the sealed key - and its account index entry. */
  async delete(grant: Pick<Grant, "id" | "owner">): Promise<void> {
    await withKvTimeout(
      this.#timeout,
      () =>
        this.#kv.atomic().delete(grantKey(grant.id)).delete(indexKey(grant.owner, grant.id))
          .commit(),
    );
  }

  /**
   * The grants of one account (`owner`: its pseudonym), as the index lists them. An entry
   * outlives its grant only if a delete failed halfway (never: they go in one commit), or until
   * both expire together.
   */
  async accountGrants(owner: string): Promise<AccountGrant[]> {
    const entries = await withKvTimeout(
      this.#timeout,
      () =>
        Array.fromAsync(this.#kv.list({ prefix: ["auth", "account", owner] }, { limit: 1_000 })),
    );
    return entries.flatMap((entry) => {
      const id = entry.key.at(-1);
      const parsed = AccountGrantSchema.safeParse(entry.value);
      return typeof id === "string" && parsed.success ? [{ id, ...parsed.data }] : [];
    });
  }

  /**
   * Marks a consent form used: true the first time for `nonce`, false for a replay. Kept for
   * `ttlMs` (longer than a form lives).
   */
  useNonce(nonce: string, ttlMs: number): Promise<boolean> {
    return this.#setIf(nonceKey(nonce), null, true, ttlMs);
  }

  /**
   * Whether the consent form `nonce` was already answered (a read: {@linkcode useNonce} is what
   * marks it).
   */
  async nonceUsed(nonce: string): Promise<boolean> {
    const entry = await withKvTimeout(this.#timeout, () => this.#kv.get(nonceKey(nonce)));
    return entry.versionstamp !== null;
  }

  /** Sets a grant and its index entry for `ttlMs` if the grant's versionstamp is `versionstamp`. */
  async #write(grant: Grant, versionstamp: string | null, ttlMs: number): Promise<boolean> {
    const key = grantKey(grant.id);
    const indexed: z.infer<typeof AccountGrantSchema> = {
      clientId: grant.clientId,
      createdAt: grant.createdAt,
      renewedAt: grant.renewedAt,
    };
    const result = await withKvTimeout(
      this.#timeout,
      () =>
        this.#kv.atomic().check({ key, versionstamp })
          .set(key, grant, { expireIn: ttlMs })
          .set(indexKey(grant.owner, grant.id), indexed, { expireIn: ttlMs })
          .commit(),
    );
    return result.ok;
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

function indexKey(owner: string, id: string): Deno.KvKey {
  return ["auth", "account", owner, id];
}

function nonceKey(nonce: string): Deno.KvKey {
  return ["auth", "consent", nonce];
}
