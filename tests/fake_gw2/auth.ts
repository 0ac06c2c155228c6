/**
 * API keys of the fake: the test keys it accepts (real 72-character format, two GUIDs back to
 * back) with their scopes, how a request presents one (`Authorization: Bearer` or
 * `?access_token=`), and the 401/403 answers. Missing, malformed and unknown keys all get 401
 * `Invalid access token` (current upstream behaviour); a missing scope gets 403
 * `requires scope <scope>`, naming the first missing scope in the endpoint's order.
 *
 * @module
 */

import { type Answer, failure, requiresScope, TEXT } from "./responses.ts";

/** A GW2 API key permission. */
export type Scope =
  | "account"
  | "builds"
  | "characters"
  | "guilds"
  | "inventories"
  | "progression"
  | "pvp"
  | "tradingpost"
  | "unlocks"
  | "wallet"
  | "wvw";

/** A key the fake knows. */
export interface TestKey {
  /** The label the request log shows instead of the key. */
  readonly label: string;
  readonly key: string;
  /** The user-given key name `/v2/tokeninfo` reports. */
  readonly name: string;
  readonly permissions: readonly Scope[];
  /** Whose data the key reads: the main account, or the 19-character veteran account. */
  readonly account: "main" | "veteran";
  /** The account name `/v2/account` gives instead of the data's own (a {@linkcode playerKey}). */
  readonly accountName?: string;
  /** A subtoken's times (epoch ms) and its key's id: `/v2/tokeninfo` says `type: "Subtoken"`. */
  readonly subtoken?: {
    readonly issuedAt: number;
    readonly expiresAt: number;
    readonly parentId: string;
  };
}

/** Player API keys the fake accepts (72-char GW2 key format), by label. */
export const TEST_KEYS = {
  /** account, inventories, characters, wallet, progression, unlocks, tradingpost, builds */
  full: "FA11C0DE-0001-4F00-8A00-00000000F0110DDBA11F-0001-4E00-9B00-000000000001",
  /** account */
  accountOnly: "FA11C0DE-0002-4F00-8A00-00000000F0220DDBA11F-0002-4E00-9B00-000000000002",
  /** account, characters, wallet, progression */
  noInventories: "FA11C0DE-0003-4F00-8A00-00000000F0330DDBA11F-0003-4E00-9B00-000000000003",
  /** account, inventories, characters */
  noWallet: "FA11C0DE-0004-4F00-8A00-00000000F0440DDBA11F-0004-4E00-9B00-000000000004",
  /** account, inventories, wallet */
  noCharacters: "FA11C0DE-0005-4F00-8A00-00000000F0550DDBA11F-0005-4E00-9B00-000000000005",
  /** Full access to the 19-character veteran account. */
  veteran: "FA11C0DE-0006-4F00-8A00-00000000F0660DDBA11F-0006-4E00-9B00-000000000006",
  /** account, progression: the resets and the Vault's progress, not the wallet's Acclaim. */
  progressionOnly: "FA11C0DE-0007-4F00-8A00-00000000F0770DDBA11F-0007-4E00-9B00-000000000007",
  /** account, tradingpost, wallet: the Trading Post without inventories or characters. */
  trader: "FA11C0DE-0008-4F00-8A00-00000000F0880DDBA11F-0008-4E00-9B00-000000000008",
} as const;

/** A well-formed key the fake does not know (→ 401). */
export const UNKNOWN_KEY =
  "DEADBEEF-0000-4000-8000-0000000000000BADC0DE-0000-4000-8000-000000000000";

const FULL_ACCESS: readonly Scope[] = [
  "account",
  "inventories",
  "characters",
  "wallet",
  "progression",
  "unlocks",
  "tradingpost",
  "builds",
];

const KEYS: readonly TestKey[] = [
  {
    label: "full",
    key: TEST_KEYS.full,
    name: "Priory full access",
    permissions: FULL_ACCESS,
    account: "main",
  },
  {
    label: "accountOnly",
    key: TEST_KEYS.accountOnly,
    name: "Account only",
    permissions: ["account"],
    account: "main",
  },
  {
    label: "noInventories",
    key: TEST_KEYS.noInventories,
    name: "No inventories",
    permissions: ["account", "characters", "wallet", "progression"],
    account: "main",
  },
  {
    label: "noWallet",
    key: TEST_KEYS.noWallet,
    name: "No wallet",
    permissions: ["account", "inventories", "characters"],
    account: "main",
  },
  {
    label: "noCharacters",
    key: TEST_KEYS.noCharacters,
    name: "No characters",
    permissions: ["account", "inventories", "wallet"],
    account: "main",
  },
  {
    label: "veteran",
    key: TEST_KEYS.veteran,
    name: "Veteran full access",
    permissions: FULL_ACCESS,
    account: "veteran",
  },
  {
    label: "progressionOnly",
    key: TEST_KEYS.progressionOnly,
    name: "Progression only",
    permissions: ["account", "progression"],
    account: "main",
  },
  {
    label: "trader",
    key: TEST_KEYS.trader,
    name: "Trading Post only",
    permissions: ["account", "tradingpost", "wallet"],
    account: "main",
  },
];

const BY_KEY = new Map(KEYS.map((entry) => [entry.key, entry]));

/** The most players {@linkcode playerKey} makes. */
export const MAX_PLAYERS = 999;

/**
 * The full-access key of player `n` (1–{@linkcode MAX_PLAYERS}): the main account's data under an
 * account name of its own, `Priory Player <n>.<1000 + n>` — so a scenario can sign in many
 * distinct players (the public mode's identity is the account) without as many worlds.
 */
export function playerKey(n: number): string {
  if (!Number.isInteger(n) || n < 1 || n > MAX_PLAYERS) {
    throw new RangeError(`player ${n}: 1 to ${MAX_PLAYERS}`);
  }
  const part = String(n).padStart(12, "0");
  return `FA11C0DE-0100-4F00-8A00-${part}0DDBA11F-0100-4E00-9B00-${part}`;
}

const PLAYER_KEY = /^FA11C0DE-0100-4F00-8A00-(\d{12})0DDBA11F-0100-4E00-9B00-\1$/;

function player(key: string): TestKey | undefined {
  const n = Number(PLAYER_KEY.exec(key)?.[1]);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PLAYERS) return undefined;
  return {
    label: `player${n}`,
    key,
    name: `Player ${n} full access`,
    permissions: FULL_ACCESS,
    account: "main",
    accountName: `Priory Player ${n}.${1000 + n}`,
  };
}

/** The key a request presents: the `Authorization: Bearer` header first, else `access_token`. */
export function presentedKey(params: URLSearchParams, headers: Headers): string | undefined {
  const header = headers.get("authorization");
  const bearer = header === null ? undefined : /^Bearer\s+(\S+)\s*$/iu.exec(header)?.[1];
  if (bearer !== undefined) return bearer;
  const query = params.get("access_token");
  return query === null || query === "" ? undefined : query;
}

/**
 * The test key with this exact value, if any: a test key, a {@linkcode playerKey}, or an
 * unexpired subtoken of one (`now`: epoch ms).
 */
export function lookupKey(key: string | undefined, now: number = Date.now()): TestKey | undefined {
  if (key === undefined) return undefined;
  return BY_KEY.get(key) ?? player(key) ?? subtoken(key, now);
}

/**
 * A GW2 subtoken of the test key labelled `label` (as `/v2/createsubtoken` makes, and gw2.me
 * hands out): a JWT whose payload names the key, the permissions (those of the key among
 * `permissions`) and the expiry. Its signature is a checksum under the fake's own secret, not
 * cryptography: enough that an altered token is refused, as GW2 refuses one.
 */
export function mintSubtoken(
  label: string,
  permissions: readonly string[],
  issuedAt: number,
  expiresAt: number,
): string {
  const base = KEYS.find((entry) => entry.label === label) ?? player(labelKey(label) ?? "");
  if (base === undefined) throw new RangeError(`no test key labelled ${label}`);
  const payload = {
    sub: label,
    permissions: base.permissions.filter((scope) => permissions.includes(scope)),
    iat: Math.floor(issuedAt / 1000),
    exp: Math.floor(expiresAt / 1000),
  };
  const body = `${SUBTOKEN_HEADER}.${encodeJson(payload)}`;
  return `${body}.${checksum(body)}`;
}

const SUBTOKEN_HEADER = encodeJson({ alg: "HS256", typ: "JWT" });
const SUBTOKEN_SECRET = "fake-gw2 subtoken secret";

function subtoken(key: string, now: number): TestKey | undefined {
  const [header, payload, signature, ...rest] = key.split(".");
  if (header !== SUBTOKEN_HEADER || payload === undefined || rest.length > 0) return undefined;
  if (signature !== checksum(`${header}.${payload}`)) return undefined;
  let claims: { sub?: unknown; permissions?: unknown; iat?: unknown; exp?: unknown };
  try {
    claims = JSON.parse(new TextDecoder().decode(base64urlBytes(payload)));
  } catch {
    return undefined;
  }
  const { sub, permissions, iat, exp } = claims;
  if (typeof sub !== "string" || typeof exp !== "number" || typeof iat !== "number") {
    return undefined;
  }
  if (!Array.isArray(permissions) || exp * 1000 <= now) return undefined;
  const base = KEYS.find((entry) => entry.label === sub) ?? player(labelKey(sub) ?? "");
  if (base === undefined) return undefined;
  return {
    ...base,
    label: `subtoken:${sub}`,
    key,
    permissions: base.permissions.filter((scope) => permissions.includes(scope)),
    subtoken: { issuedAt: iat * 1000, expiresAt: exp * 1000, parentId: base.key.slice(0, 36) },
  };
}

/** The key of a `player<n>` label. */
function labelKey(label: string): string | undefined {
  const n = /^player(\d+)$/.exec(label)?.[1];
  return n === undefined ? undefined : playerKey(Number(n));
}

function encodeJson(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64urlBytes(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** FNV-1a over the secret and `text`, twice with different seeds, as base64url. */
function checksum(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const char of SUBTOKEN_SECRET + text) {
    const code = char.charCodeAt(0);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x811c9dc5) >>> 0;
  }
  return encodeJson([a, b]);
}

/**
 * Checks a presented key against an endpoint's scopes: the key on success, else the 401 or
 * 403 answer.
 */
export function authorize(
  key: TestKey | undefined,
  scopes: readonly Scope[],
): { readonly key: TestKey } | { readonly denied: Answer } {
  if (key === undefined) return { denied: failure(401, TEXT.invalidAccessToken) };
  const missing = scopes.find((scope) => !key.permissions.includes(scope));
  return missing === undefined ? { key } : { denied: failure(403, requiresScope(missing)) };
}
