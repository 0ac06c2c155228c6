/**
 * Cache identity of a player's GW2 API key: an HMAC-SHA-256 of the key under a secret derived
 * from the server's MCP token. Account cache entries are keyed by this digest, never by the key,
 * so the key itself is in no KV key or value. Every instance that shares the token derives the
 * same secret and therefore shares account cache entries; without the token the digest cannot
 * be recomputed from a guessed key.
 *
 * @module
 */

import { toBase64Url } from "../encoding.ts";

const DERIVATION_LABEL = "priory/gw2-key-cache/v1";
const encoder = new TextEncoder();

/** Computes cache identities of player keys. */
export interface KeyHasher {
  /** The base64url HMAC-SHA-256 of `key` (43 characters). */
  hash(key: string): Promise<string>;
}

/**
 * Creates a hasher whose secret is `HMAC-SHA-256(serverToken, "priory/gw2-key-cache/v1")`; the
 * derivation runs once, lazily, on the first `hash`.
 *
 * @example
 * ```ts
 * const hasher = createKeyHasher(config.authToken);
 * const id = await hasher.hash(playerKey); // e.g. "q3Xb…", stable for this token
 * ```
 * @param serverToken the server's MCP bearer token (secret material, never stored)
 */
export function createKeyHasher(serverToken: string): KeyHasher {
  if (serverToken === "") {
    throw new TypeError("Cannot derive the key-hash secret: the server token is empty");
  }
  let secret: Promise<CryptoKey> | undefined;
  return {
    async hash(key: string): Promise<string> {
      secret ??= deriveSecret(serverToken);
      const digest = await crypto.subtle.sign("HMAC", await secret, encoder.encode(key));
      return toBase64Url(new Uint8Array(digest));
    },
  };
}

async function deriveSecret(serverToken: string): Promise<CryptoKey> {
  const tokenKey = await importHmacKey(encoder.encode(serverToken));
  const derived = await crypto.subtle.sign("HMAC", tokenKey, encoder.encode(DERIVATION_LABEL));
  return importHmacKey(new Uint8Array(derived));
}

function importHmacKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}
