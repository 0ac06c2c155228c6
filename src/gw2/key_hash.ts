/**
 * Cache identity of a player's GW2 API key: an HMAC-SHA-256 of the key under a server-side
 * secret. Account cache entries are keyed by this digest, never by the key, so the key itself
 * is in no KV key or value. The secret is the one `src/gw2/cache/key_secret.ts` keeps in KV, so every
 * instance on the same KV derives the same digest and shares account cache entries, and neither
 * a restart nor an MCP token rotation orphans them.
 *
 * @module
 */

import { Buffer } from "node:buffer";

const encoder = new TextEncoder();

/** Computes cache identities of player keys. */
export interface KeyHasher {
  /** The base64url HMAC-SHA-256 of `key` (43 characters). */
  hash(key: string): Promise<string>;
}

/**
 * Creates a hasher over the secret `loadSecret` yields. It is loaded lazily, on the first
 * `hash`, and kept once loaded; a failed load is not kept, so the next `hash` tries again.
 *
 * @example
 * ```ts
 * const hasher = createKeyHasher(() => loadKeySecret({ kv, key, clock }));
 * const id = await hasher.hash(playerKey); // e.g. "q3Xb...", stable for this secret
 * ```
 * @param loadSecret yields the secret bytes (at least 32; secret material, never logged)
 */
export function createKeyHasher(loadSecret: () => Promise<Uint8Array<ArrayBuffer>>): KeyHasher {
  let secret: Promise<CryptoKey> | undefined;
  return {
    async hash(key: string): Promise<string> {
      const loading = secret ??= loadSecret().then(importHmacKey);
      let hmacKey: CryptoKey;
      try {
        hmacKey = await loading;
      } catch (error) {
        if (secret === loading) secret = undefined;
        throw error;
      }
      const digest = await crypto.subtle.sign("HMAC", hmacKey, encoder.encode(key));
      return Buffer.from(digest).toString("base64url");
    },
  };
}

function importHmacKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  if (raw.byteLength < 32) {
    return Promise.reject(new TypeError("Cannot hash keys: the secret is shorter than 32 bytes"));
  }
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}
