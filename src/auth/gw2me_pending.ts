/**
 * Sign-ins waiting on gw2.me, in Deno KV: what the player was signing in to (the checked
 * authorization request their app made), the PKCE verifier of Priory's own request to gw2.me
 * (sealed), and the digest of the cookie that binds it to their browser. Keyed by the digest of
 * the `state` sent to gw2.me, kept ten minutes, taken once (compare-and-delete), so a callback
 * replayed or raced finds nothing.
 *
 * @module
 */

import { z } from "zod";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../kv/timeout.ts";

/** The authorization request a player was answering when they chose gw2.me. */
export const PendingConsentSchema = z.object({
  clientId: z.string(),
  clientName: z.string().optional(),
  redirectUri: z.string(),
  challenge: z.string(),
  resource: z.string(),
  state: z.string().optional(),
});

/** A checked authorization request, as the consent page and the gw2.me sign-in carry it. */
export type PendingConsent = z.infer<typeof PendingConsentSchema>;

const PendingSchema = z.object({
  request: PendingConsentSchema,
  verifier: z.object({ iv: z.string(), data: z.string() }),
  /** SHA-256 of the binding cookie's value. */
  binding: z.string(),
  expiresAt: z.number(),
});

/** A sign-in waiting on gw2.me. */
export type Pending = z.infer<typeof PendingSchema>;

/** A pending sign-in as read, for {@linkcode Gw2mePending.take}. */
export interface PendingEntry {
  readonly key: Deno.KvKey;
  readonly pending: Pending;
  readonly versionstamp: string;
}

/** The KV operations of pending gw2.me sign-ins. */
export class Gw2mePending {
  readonly #kv: Deno.Kv;
  readonly #timeout: KvTimeout;

  /** @param kv the process's KV; @param timeout the bound of each call */
  constructor(kv: Deno.Kv, timeout: KvTimeout = DEFAULT_KV_TIMEOUT) {
    this.#kv = kv;
    this.#timeout = timeout;
  }

  /** Stores a pending sign-in under its state's digest for `ttlMs`. */
  async put(stateDigest: string, pending: Pending, ttlMs: number): Promise<void> {
    await withKvTimeout(
      this.#timeout,
      () => this.#kv.set(pendingKey(stateDigest), pending, { expireIn: ttlMs }),
    );
  }

  /** The pending sign-in of a state's digest, without taking it. */
  async peek(stateDigest: string): Promise<PendingEntry | undefined> {
    const key = pendingKey(stateDigest);
    const entry = await withKvTimeout(this.#timeout, () => this.#kv.get(key));
    if (entry.versionstamp === null) return undefined;
    const parsed = PendingSchema.safeParse(entry.value);
    return parsed.success
      ? { key, pending: parsed.data, versionstamp: entry.versionstamp }
      : undefined;
  }

  /** Takes a pending sign-in once: false when another callback took it first. */
  async take(entry: PendingEntry): Promise<boolean> {
    const result = await withKvTimeout(
      this.#timeout,
      () =>
        this.#kv.atomic().check({ key: entry.key, versionstamp: entry.versionstamp })
          .delete(entry.key).commit(),
    );
    return result.ok;
  }
}

function pendingKey(stateDigest: string): Deno.KvKey {
  return ["auth", "gw2me", stateDigest];
}
