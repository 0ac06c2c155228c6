/**
 * Byte encodings shared by the modules that mint or hash secrets (Deno std's `encoding` lives
 * on jsr, which is out of reach).
 *
 * @module
 */

/**
 * Unpadded base64url (RFC 4648 §5) of `bytes`.
 *
 * @example
 * ```ts
 * toBase64Url(new Uint8Array([251, 255])); // "-_8"
 * ```
 */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
