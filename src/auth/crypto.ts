/**
 * The public mode's cryptography, on WebCrypto only. From `PRIORY_SECRET`, HKDF-SHA-256 derives
 * independent keys, one per job: AES-256-GCM for the players' GW2 keys at rest (bound to their
 * grant by the additional data, so a sealed key cannot be moved to another grant), HMAC-SHA-256
 * for what the server signs and checks later - one key per purpose (dynamic clients' ids, the
 * consent form's state, the sign-out form's state) - HMAC-SHA-256 for players' pseudonyms (a
 * stable id per GW2 account that names no one) and for remembering a key check's outcome.
 * Tokens and codes are random 256-bit values stored only as SHA-256 digests; PKCE is S256.
 *
 * @module
 */

import { Buffer } from "node:buffer";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A GW2 key sealed under the server's secret: AES-256-GCM, both parts base64url. */
export interface SealedValue {
  readonly iv: string;
  readonly data: string;
}

/** Base64url without padding. */
export function base64url(bytes: ArrayBuffer | Uint8Array): string {
  return Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString(
    "base64url",
  );
}

/** `bytes` random bytes, base64url (32 bytes: 43 characters, 256 bits). */
export function randomId(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** The SHA-256 digest of `value`, base64url: how tokens and codes are stored. */
export async function digest(value: string): Promise<string> {
  return base64url(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/**
 * Whether a PKCE `code_verifier` matches an S256 `code_challenge` (RFC 7636 §4.6). A verifier
 * outside the RFC's shape (43-128 unreserved characters) never matches.
 */
export async function pkceMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return sameText(await digest(verifier), challenge);
}

/**
 * Whether `candidate` equals `expected`, in a time that depends only on the candidate's length
 * (which its sender knows): every code unit of the candidate is compared, against the expected
 * value cycled, with no early exit, and a length difference only sets a bit. The one comparison
 * of secrets (the static token, digests, MACs, the consent cookie). Hashing both sides with
 * `node:crypto` and `timingSafeEqual` did the same at ~18 µs per request; this takes well under
 * 1 µs.
 */
export function sameText(candidate: string, expected: string): boolean {
  const cycle = Math.max(1, expected.length);
  let difference = candidate.length ^ expected.length;
  for (let index = 0; index < candidate.length; index++) {
    difference |= candidate.charCodeAt(index) ^ expected.charCodeAt(index % cycle);
  }
  return difference === 0;
}

/**
 * What a signed value is for: each purpose has its own HMAC key, so a value signed for one (a
 * registered client id) is never accepted as another (a form's state), whatever its shape.
 */
export type SignPurpose = "client" | "consent" | "signout";

/**
 * The HKDF label of each purpose's key. Client ids keep the label the one signing key had
 * before the purposes were separated, so ids registered then stay valid; forms live minutes,
 * and theirs are new.
 */
const SIGN_LABELS: Readonly<Record<SignPurpose, string>> = {
  client: "signed state v1",
  consent: "consent form state v1",
  signout: "sign-out form state v1",
};

/** The keys derived from `PRIORY_SECRET`. Build once per process with {@linkcode deriveSecrets}. */
export class AuthSecrets {
  readonly #seal: CryptoKey;
  readonly #sign: Readonly<Record<SignPurpose, CryptoKey>>;
  readonly #pseudonym: CryptoKey;
  readonly #keyTag: CryptoKey;

  private constructor(
    seal: CryptoKey,
    sign: Readonly<Record<SignPurpose, CryptoKey>>,
    pseudonym: CryptoKey,
    keyTag: CryptoKey,
  ) {
    this.#seal = seal;
    this.#sign = sign;
    this.#pseudonym = pseudonym;
    this.#keyTag = keyTag;
  }

  /** @internal use {@linkcode deriveSecrets} */
  static async derive(secret: string): Promise<AuthSecrets> {
    const base = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
      "deriveKey",
    ]);
    const derive = (info: string, algorithm: AesKeyGenParams | HmacKeyGenParams, use: KeyUsage[]) =>
      crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode("priory-mcp public mode"),
          info: encoder.encode(info),
        },
        base,
        algorithm,
        false,
        use,
      );
    const hmac: HmacKeyGenParams = { name: "HMAC", hash: "SHA-256", length: 256 };
    return new AuthSecrets(
      await derive("gw2 key at rest v1", { name: "AES-GCM", length: 256 }, ["encrypt", "decrypt"]),
      {
        client: await derive(SIGN_LABELS.client, hmac, ["sign"]),
        consent: await derive(SIGN_LABELS.consent, hmac, ["sign"]),
        signout: await derive(SIGN_LABELS.signout, hmac, ["sign"]),
      },
      await derive("account pseudonym v1", hmac, ["sign"]),
      await derive("key check memory v1", hmac, ["sign"]),
    );
  }

  /** Seals `plaintext` for `context` (the grant id): only that context opens it. */
  async seal(plaintext: string, context: string): Promise<SealedValue> {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const data = await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: encoder.encode(context) },
      this.#seal,
      encoder.encode(plaintext),
    );
    return { iv: base64url(iv), data: base64url(data) };
  }

  /** The plaintext of a sealed value, or `undefined` (another secret, context or a forgery). */
  async open(sealed: SealedValue, context: string): Promise<string | undefined> {
    try {
      const plain = await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: new Uint8Array(Buffer.from(sealed.iv, "base64url")),
          additionalData: encoder.encode(context),
        },
        this.#seal,
        new Uint8Array(Buffer.from(sealed.data, "base64url")),
      );
      return decoder.decode(plain);
    } catch {
      return undefined;
    }
  }

  /**
   * `payload` with a MAC for `purpose`: `<payload>.<mac>`; read back with
   * {@linkcode AuthSecrets.unsign} and the same purpose.
   */
  async sign(purpose: SignPurpose, payload: string): Promise<string> {
    return `${payload}.${await this.#mac(purpose, payload)}`;
  }

  /**
   * The payload of a value {@linkcode AuthSecrets.sign} made for `purpose`, or `undefined` when
   * forged. The MAC is compared as the one canonical base64url string `sign` writes, in constant
   * time: a lenient decoder would accept other spellings of the same bytes (padding, trailing
   * bits, stray characters), and a signed value has exactly one.
   */
  async unsign(purpose: SignPurpose, signed: string): Promise<string | undefined> {
    const dot = signed.lastIndexOf(".");
    if (dot <= 0) return undefined;
    const payload = signed.slice(0, dot);
    const expected = await this.#mac(purpose, payload);
    return sameText(signed.slice(dot + 1), expected) ? payload : undefined;
  }

  async #mac(purpose: SignPurpose, payload: string): Promise<string> {
    return base64url(
      await crypto.subtle.sign("HMAC", this.#sign[purpose], encoder.encode(payload)),
    );
  }

  /**
   * A tag of a GW2 key for remembering a check's outcome in memory: its HMAC under a key of its
   * own, base64url. Never the key.
   */
  async keyTag(key: string): Promise<string> {
    return base64url(await crypto.subtle.sign("HMAC", this.#keyTag, encoder.encode(key)));
  }

  /** A stable pseudonym for `value` (a GW2 account name): 128 bits of its HMAC, base64url. */
  async pseudonym(value: string): Promise<string> {
    const mac = await crypto.subtle.sign("HMAC", this.#pseudonym, encoder.encode(value));
    return base64url(new Uint8Array(mac).slice(0, 16));
  }
}

/**
 * Derives the public mode's keys from `PRIORY_SECRET`.
 *
 * @example
 * ```ts
 * const secrets = await deriveSecrets(config.publicMode.secret);
 * const sealed = await secrets.seal(gw2Key, grantId);
 * ```
 */
export function deriveSecrets(secret: string): Promise<AuthSecrets> {
  return AuthSecrets.derive(secret);
}
