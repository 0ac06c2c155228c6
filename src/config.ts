/**
 * Configuration: every environment variable of the contract, parsed once into a typed,
 * validated object. Nothing else in the project reads the environment; `main.ts` hands this
 * module a getter and receives a {@linkcode Config} or a {@linkcode ConfigError} that names
 * the variable and the fix.
 *
 * @module
 */

import { Buffer } from "node:buffer";

/** Log verbosity, lowest first. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
/** One of {@linkcode LOG_LEVELS}. */
export type LogLevel = typeof LOG_LEVELS[number];

/** How the process was started: `start` is production, `dev` is the local developer loop. */
export type RunMode = "start" | "dev";

/** `PRIORY_AUTH`: the static bearer (`token`, the default) or the public OAuth mode (`oauth`). */
export type AuthMode = "token" | "oauth";

/** The public mode's settings (`PRIORY_AUTH=oauth`). */
export interface PublicModeConfig {
  /** `PRIORY_PUBLIC_URL` as an origin (no trailing slash): the issuer; the resource is `<it>/mcp`. */
  readonly publicUrl: string;
  /** `PRIORY_SECRET`: encrypts stored keys, signs consent state. Never logged. */
  readonly secret: string;
  /** True when `dev` generated {@linkcode PublicModeConfig.secret} (kept in `.priory/`). */
  readonly secretGenerated: boolean;
  /**
   * `PRIORY_GRANT_CALLS_BURST`: tool calls one player (a GW2 account, over all its sign-ins) may
   * make at once after a pause.
   */
  readonly callsBurst: number;
  /** `PRIORY_GRANT_CALLS_PER_MINUTE`: tool calls one player may make per minute, sustained. */
  readonly callsPerMinute: number;
  /** `PRIORY_GRANT_CALLS_AT_ONCE`: tool calls of one player that run at once; more wait. */
  readonly callsAtOnce: number;
  /**
   * `PRIORY_CLIENT_ADDRESS_HEADER` (lower case): the request header the operator's reverse proxy
   * sets to the client's address (its last comma-separated entry is read), which the limits per
   * client address then count by. Absent: the TCP peer's address (right on Deno Deploy; behind a
   * proxy it would be the proxy's, one address for every player).
   */
  readonly clientAddressHeader?: string;
  /** `PRIORY_OPERATOR` / `PRIORY_OPERATOR_URL`: who runs the server, shown on its pages. */
  readonly operator?: OperatorConfig;
  /** Sign in with gw2.me (`PRIORY_GW2ME_*`); absent: players paste a key. */
  readonly gw2me?: Gw2meConfig;
}

/** Who runs a public server, as its pages name them (each part optional, at least one set). */
export interface OperatorConfig {
  /** `PRIORY_OPERATOR`: a name or handle, plain text. */
  readonly name?: string;
  /** `PRIORY_OPERATOR_URL`: a contact or privacy page (https, or http on loopback). */
  readonly url?: string;
}

/** Priory as a confidential client of gw2.me (`PRIORY_GW2ME_*`). */
export interface Gw2meConfig {
  /** `PRIORY_GW2ME_URL` as an origin (default `https://gw2.me`). */
  readonly url: string;
  /** `PRIORY_GW2ME_CLIENT_ID`. */
  readonly clientId: string;
  /** `PRIORY_GW2ME_CLIENT_SECRET`. Never logged. */
  readonly clientSecret: string;
}

/** The parsed configuration of one process. */
export interface Config {
  readonly mode: RunMode;
  /**
   * The static bearer token every `/mcp` request must carry (token mode). Never logged. In public
   * mode it is optional: empty when `MCP_AUTH_TOKEN` is unset, and then no static token is
   * accepted.
   */
  readonly authToken: string;
  /** True when `dev` generated {@linkcode Config.authToken} because `MCP_AUTH_TOKEN` was unset. */
  readonly authTokenGenerated: boolean;
  readonly port: number;
  readonly hostname: string;
  /** True when {@linkcode Config.hostname} is a loopback address. */
  readonly loopback: boolean;
  /** Browser origins allowed to call `/mcp`; an entry may end in `:*` for any port. */
  readonly allowedOrigins: readonly string[];
  /** Accepted `Host` header values (host, or host:port); `undefined` accepts any Host. */
  readonly allowedHosts: readonly string[] | undefined;
  /** Upstream base URL without a trailing slash, e.g. `https://api.guildwars2.com`. */
  readonly gw2ApiBase: string;
  /** Where Deno KV lives; `undefined` means `Deno.openKv()`'s default. */
  readonly kvPath: string | undefined;
  /** Shared upstream token bucket: capacity. */
  readonly rateBurst: number;
  /** Shared upstream token bucket: tokens refilled per second. */
  readonly ratePerSec: number;
  readonly logLevel: LogLevel;
  /** `PRIORY_CATALOGUE`: crawl the whole item and recipe catalogue in the background. */
  readonly catalogue: boolean;
  /** `PRIORY_AUTH`. */
  readonly auth: AuthMode;
  /** The public mode's settings; present exactly when {@linkcode Config.auth} is `oauth`. */
  readonly publicMode?: PublicModeConfig;
  /** `PRIORY_SNAPSHOT_MINUTES`: minutes between Trading Post snapshots (1-60). */
  readonly snapshotMinutes: number;
}

/** A configuration value that cannot be used; the message names the variable and the remedy. */
export class ConfigError extends Error {
  /** The environment variable at fault. */
  readonly variable: string;

  /** @param variable the variable at fault; @param message what is wrong and how to fix it */
  constructor(variable: string, message: string) {
    super(message);
    this.name = "ConfigError";
    this.variable = variable;
  }
}

/** Reads one environment variable; `undefined` when unset. */
export type EnvGetter = (name: string) => string | undefined;

/** Options for {@linkcode parseConfig}. */
export interface ParseConfigOptions {
  /** `dev` generates a token when `MCP_AUTH_TOKEN` is unset; `start` refuses to run. */
  readonly mode: RunMode;
  /** Source of the token `dev` generates; injectable so tests are deterministic. */
  readonly generateToken?: () => string;
  /** `deno task dev --public`: the public mode as if `PRIORY_AUTH=oauth` were set. */
  readonly public?: boolean;
}

const DEFAULT_PORT = 8000;
const DEFAULT_GW2_API_BASE = "https://api.guildwars2.com";
const DEFAULT_RATE_BURST = 300;
const DEFAULT_RATE_PER_SEC = 5;
const DEFAULT_GRANT_CALLS_BURST = 30;
const DEFAULT_GRANT_CALLS_PER_MINUTE = 60;
const DEFAULT_GRANT_CALLS_AT_ONCE = 2;
/** The least length of `PRIORY_SECRET`. */
export const MIN_SECRET_LENGTH = 32;

const LOOPBACK_ORIGINS = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"] as const;
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/**
 * Parses and validates the environment.
 *
 * @example
 * ```ts
 * const config = parseConfig((name) => Deno.env.get(name), { mode: "start" });
 * ```
 * @throws {ConfigError} when a variable is missing or malformed.
 */
export function parseConfig(env: EnvGetter, options: ParseConfigOptions): Config {
  const mode = options.mode;
  const auth = options.public === true ? "oauth" : parseAuthMode(env("PRIORY_AUTH"));
  const { authToken, authTokenGenerated } = parseAuthToken(
    env,
    mode,
    options.generateToken,
    auth,
  );
  const port = parsePort(env("PORT"));
  const hostname = parseHostname(env("PRIORY_HOSTNAME"), mode);
  const loopback = isLoopbackHostname(hostname);
  const allowedOrigins = parseOrigins(env("MCP_ALLOWED_ORIGINS"), loopback);
  const allowedHosts = parseHosts(env("MCP_ALLOWED_HOSTS"), loopback);
  const gw2ApiBase = parseApiBase(env("GW2_API_BASE"));
  const kvPath = blankToUndefined(env("PRIORY_KV_PATH"));
  const rateBurst = parsePositive("GW2_RATE_BURST", env("GW2_RATE_BURST"), DEFAULT_RATE_BURST, {
    integer: true,
  });
  const ratePerSec = parsePositive(
    "GW2_RATE_PER_SEC",
    env("GW2_RATE_PER_SEC"),
    DEFAULT_RATE_PER_SEC,
    { integer: false },
  );
  const logLevel = parseLogLevel(env("LOG_LEVEL"));
  const catalogue = parseCatalogue(env("PRIORY_CATALOGUE"));
  const publicMode = auth === "oauth"
    ? parsePublicMode(env, { mode, port, generate: options.generateToken ?? generateRandomToken })
    : undefined;
  const snapshotMinutes = parseSnapshotMinutes(env("PRIORY_SNAPSHOT_MINUTES"));
  return {
    mode,
    authToken,
    authTokenGenerated,
    port,
    hostname,
    loopback,
    allowedOrigins,
    allowedHosts,
    gw2ApiBase,
    kvPath,
    rateBurst,
    ratePerSec,
    logLevel,
    catalogue,
    auth,
    ...(publicMode === undefined ? {} : { publicMode }),
    snapshotMinutes,
  };
}

/** True for `localhost`, `::1` and any 127.0.0.0/8 address. */
export function isLoopbackHostname(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** 32 random bytes, base64url: what `dev` uses when `MCP_AUTH_TOKEN` is unset. */
export function generateRandomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

function parseAuthToken(
  env: EnvGetter,
  mode: RunMode,
  generateToken: (() => string) | undefined,
  auth: AuthMode,
): { authToken: string; authTokenGenerated: boolean } {
  const raw = env("MCP_AUTH_TOKEN");
  const token = raw?.trim() ?? "";
  if (token !== "") {
    if (/\s/.test(token)) {
      throw new ConfigError(
        "MCP_AUTH_TOKEN",
        'Cannot use "MCP_AUTH_TOKEN": the token contains whitespace, which no client can send in a bearer header',
      );
    }
    return { authToken: token, authTokenGenerated: false };
  }
  if (mode === "dev") {
    return { authToken: (generateToken ?? generateRandomToken)(), authTokenGenerated: true };
  }
  // Public mode: players sign in; a static token is only for operators who set one.
  if (auth === "oauth") return { authToken: "", authTokenGenerated: false };
  const state = raw === undefined ? "unset" : "blank";
  throw new ConfigError(
    "MCP_AUTH_TOKEN",
    `Cannot start: "MCP_AUTH_TOKEN" is ${state}. Set it to a long random secret (for example the output of \`openssl rand -base64 32\`); every /mcp request must carry it as "Authorization: Bearer <token>"`,
  );
}

function parsePort(raw: string | undefined): number {
  const value = blankToUndefined(raw);
  if (value === undefined) return DEFAULT_PORT;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(
      "PORT",
      `Cannot use "PORT": expected an integer from 0 to 65535, got "${value}"`,
    );
  }
  return Number(value);
}

/**
 * The listen address comes from `PRIORY_HOSTNAME`, never `HOSTNAME`: Docker and Kubernetes
 * export `HOSTNAME` as the container or pod name, which is not an address to bind.
 */
function parseHostname(raw: string | undefined, mode: RunMode): string {
  const value = blankToUndefined(raw);
  const fallback = mode === "dev" ? "127.0.0.1" : "0.0.0.0";
  if (value === undefined) return fallback;
  if (!isListenAddress(value)) {
    throw new ConfigError(
      "PRIORY_HOSTNAME",
      `Cannot use "PRIORY_HOSTNAME": expected a listen address such as 0.0.0.0, 127.0.0.1, :: or localhost, not a machine name; got "${value}"`,
    );
  }
  return value;
}

function isListenAddress(value: string): boolean {
  if (value === "localhost") return true;
  if (/^(\d{1,3})(\.\d{1,3}){3}$/.test(value)) {
    return value.split(".").every((part) => Number(part) <= 255);
  }
  const bare = value.replace(/^\[|\]$/g, "");
  return bare.includes(":") && /^[0-9a-fA-F:.]+$/.test(bare);
}

function parseOrigins(raw: string | undefined, loopback: boolean): readonly string[] {
  const value = blankToUndefined(raw);
  if (value === undefined) return loopback ? [...LOOPBACK_ORIGINS] : [];
  return splitList(value).map((origin) => {
    const normalised = normaliseOrigin(origin);
    if (normalised === undefined) {
      throw new ConfigError(
        "MCP_ALLOWED_ORIGINS",
        `Cannot use "MCP_ALLOWED_ORIGINS": "${origin}" is not an origin. Use scheme://host or scheme://host:port (":*" for any port), comma-separated`,
      );
    }
    return normalised;
  });
}

function normaliseOrigin(origin: string): string | undefined {
  const wildcard = origin.endsWith(":*");
  const base = wildcard ? origin.slice(0, -2) : origin;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return undefined;
  }
  const isOrigin = (url.protocol === "http:" || url.protocol === "https:") &&
    url.username === "" && url.password === "" && url.pathname === "/" &&
    url.search === "" && url.hash === "" && !/^[a-z]+:\/\/[^/]+\/./i.test(base);
  if (!isOrigin || (wildcard && url.port !== "")) return undefined;
  return wildcard ? `${url.origin}:*` : url.origin;
}

function parseHosts(raw: string | undefined, loopback: boolean): readonly string[] | undefined {
  const value = blankToUndefined(raw);
  if (value === undefined) return loopback ? [...LOOPBACK_HOSTS] : undefined;
  return splitList(value).map((host) => {
    if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host)) {
      throw new ConfigError(
        "MCP_ALLOWED_HOSTS",
        `Cannot use "MCP_ALLOWED_HOSTS": "${host}" is not a Host value. Use host or host:port, comma-separated`,
      );
    }
    return host.toLowerCase();
  });
}

function parseApiBase(raw: string | undefined): string {
  const value = blankToUndefined(raw);
  if (value === undefined) return DEFAULT_GW2_API_BASE;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      "GW2_API_BASE",
      `Cannot use "GW2_API_BASE": "${value}" is not a URL. Use for example https://api.guildwars2.com or http://127.0.0.1:8787`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(
      "GW2_API_BASE",
      `Cannot use "GW2_API_BASE": expected an http or https URL, got "${url.protocol}"`,
    );
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new ConfigError(
      "GW2_API_BASE",
      'Cannot use "GW2_API_BASE": the URL must not carry credentials, a query or a fragment',
    );
  }
  const base = `${url.origin}${url.pathname}`.replace(/\/+$/, "");
  if (/\/v2$/i.test(base)) {
    // The GW2 docs write endpoints as https://api.guildwars2.com/v2/..., so this is an easy slip;
    // kept, every request would go to /v2/v2/... and each id would read as "not found".
    throw new ConfigError(
      "GW2_API_BASE",
      `Cannot use "GW2_API_BASE": "${value}" ends in /v2, which Priory adds itself. Leave it out, for example https://api.guildwars2.com or http://127.0.0.1:8787`,
    );
  }
  return base;
}

function parsePositive(
  variable: string,
  raw: string | undefined,
  fallback: number,
  { integer }: { integer: boolean },
): number {
  const value = blankToUndefined(raw);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  const valid = /^\d+(\.\d+)?$/.test(value) && Number.isFinite(parsed) && parsed > 0 &&
    (!integer || Number.isInteger(parsed));
  if (!valid) {
    const kind = integer ? "a positive integer" : "a positive number";
    throw new ConfigError(
      variable,
      `Cannot use "${variable}": expected ${kind}, got "${value}"`,
    );
  }
  return parsed;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  const value = blankToUndefined(raw)?.toLowerCase();
  if (value === undefined) return "info";
  const level = LOG_LEVELS.find((candidate) => candidate === value);
  if (level === undefined) {
    throw new ConfigError(
      "LOG_LEVEL",
      `Cannot use "LOG_LEVEL": expected one of ${LOG_LEVELS.join(", ")}, got "${value}"`,
    );
  }
  return level;
}

function splitList(value: string): string[] {
  return value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
}

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

function parseAuthMode(raw: string | undefined): AuthMode {
  const value = blankToUndefined(raw)?.toLowerCase();
  if (value === undefined || value === "token") return "token";
  if (value === "oauth") return "oauth";
  throw new ConfigError(
    "PRIORY_AUTH",
    `Cannot use "PRIORY_AUTH": expected token or oauth, got "${value}". Leave it unset (token: the static MCP_AUTH_TOKEN and the X-GW2-Key header) or set oauth for the public mode, where players sign in`,
  );
}

/**
 * The public mode's variables. `dev` fills what is unset so a newcomer can try the sign-in:
 * the public URL is the dev server's own loopback address, and the secret is generated (main.ts
 * keeps it in `.priory/dev-secret`). `start` refuses to run without either.
 */
function parsePublicMode(
  env: EnvGetter,
  context: { mode: RunMode; port: number; generate: () => string },
): PublicModeConfig {
  const rawUrl = blankToUndefined(env("PRIORY_PUBLIC_URL"));
  const publicUrl = rawUrl === undefined && context.mode === "dev"
    ? `http://127.0.0.1:${context.port}`
    : parsePublicUrl(rawUrl);
  const rawSecret = env("PRIORY_SECRET")?.trim() ?? "";
  let secret = rawSecret;
  let secretGenerated = false;
  if (rawSecret === "" && context.mode === "dev") {
    secret = context.generate();
    secretGenerated = true;
  } else if (rawSecret.length < MIN_SECRET_LENGTH) {
    const state = rawSecret === "" ? "unset" : `only ${rawSecret.length} characters long`;
    throw new ConfigError(
      "PRIORY_SECRET",
      `Cannot start the public mode: "PRIORY_SECRET" is ${state}. Set it to at least ${MIN_SECRET_LENGTH} random characters (for example the output of \`openssl rand -base64 48\`); it encrypts the players' stored GW2 keys, and changing it signs every player out`,
    );
  }
  const callsBurst = parsePositive(
    "PRIORY_GRANT_CALLS_BURST",
    env("PRIORY_GRANT_CALLS_BURST"),
    DEFAULT_GRANT_CALLS_BURST,
    { integer: true },
  );
  const callsPerMinute = parsePositive(
    "PRIORY_GRANT_CALLS_PER_MINUTE",
    env("PRIORY_GRANT_CALLS_PER_MINUTE"),
    DEFAULT_GRANT_CALLS_PER_MINUTE,
    { integer: false },
  );
  const callsAtOnce = parsePositive(
    "PRIORY_GRANT_CALLS_AT_ONCE",
    env("PRIORY_GRANT_CALLS_AT_ONCE"),
    DEFAULT_GRANT_CALLS_AT_ONCE,
    { integer: true },
  );
  const clientAddressHeader = parseHeaderName(env("PRIORY_CLIENT_ADDRESS_HEADER"));
  const operator = parseOperator(env);
  const gw2me = parseGw2me(env);
  return {
    publicUrl,
    secret,
    secretGenerated,
    callsBurst,
    callsPerMinute,
    callsAtOnce,
    ...(clientAddressHeader === undefined ? {} : { clientAddressHeader }),
    ...(operator === undefined ? {} : { operator }),
    ...(gw2me === undefined ? {} : { gw2me }),
  };
}

/** `PRIORY_CLIENT_ADDRESS_HEADER`: an HTTP header name (RFC 9110 token), lower-cased. */
function parseHeaderName(raw: string | undefined): string | undefined {
  const value = blankToUndefined(raw);
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(value)) {
    throw new ConfigError(
      "PRIORY_CLIENT_ADDRESS_HEADER",
      `Cannot use "PRIORY_CLIENT_ADDRESS_HEADER": expected a header name such as X-Forwarded-For or Fly-Client-IP, got "${value}". Leave it unset unless a reverse proxy in front of the server sets that header to the client's address`,
    );
  }
  return value.toLowerCase();
}

/** `PRIORY_PUBLIC_URL`: an origin, `https://`, or `http://` on a loopback host only. */
function parsePublicUrl(value: string | undefined): string {
  const fix =
    "Set it to the origin clients reach, without a path: https://priory.example.com (http:// only for a loopback host such as http://127.0.0.1:8000)";
  if (value === undefined) {
    throw new ConfigError(
      "PRIORY_PUBLIC_URL",
      `Cannot start the public mode: "PRIORY_PUBLIC_URL" is unset. ${fix}`,
    );
  }
  return parseSecureUrl("PRIORY_PUBLIC_URL", value, fix, { originOnly: true });
}

/**
 * A URL a public server names or calls: `https://`, or `http://` on a loopback host only (the
 * dev server, the fake); no credentials, query or fragment; with `originOnly`, no path either.
 * Returns the origin, or (not `originOnly`) the whole URL as parsed.
 */
function parseSecureUrl(
  variable: string,
  value: string,
  fix: string,
  { originOnly }: { originOnly: boolean },
): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(variable, `Cannot use "${variable}": "${value}" is not a URL. ${fix}`);
  }
  const secure = url.protocol === "https:" ||
    (url.protocol === "http:" && isLoopbackHostname(url.hostname));
  const bare = url.username === "" && url.password === "" &&
    (!originOnly || url.pathname === "/") && url.search === "" && url.hash === "" &&
    !/[?#]/.test(value);
  if (!secure || !bare) {
    const why = !secure
      ? "it must be https:// (http:// only on a loopback host)"
      : originOnly
      ? "it must be an origin, without a path, query, fragment or credentials"
      : "it must not carry credentials, a query or a fragment";
    throw new ConfigError(variable, `Cannot use "${variable}": "${value}": ${why}. ${fix}`);
  }
  return originOnly ? url.origin : url.href;
}

/** The longest `PRIORY_OPERATOR` shown. */
const MAX_OPERATOR_NAME = 100;

/** `PRIORY_OPERATOR` and `PRIORY_OPERATOR_URL`, each optional; `undefined` when neither is set. */
function parseOperator(env: EnvGetter): OperatorConfig | undefined {
  const name = blankToUndefined(env("PRIORY_OPERATOR"));
  const rawUrl = blankToUndefined(env("PRIORY_OPERATOR_URL"));
  if (name !== undefined && (name.length > MAX_OPERATOR_NAME || /\p{Cc}/u.test(name))) {
    throw new ConfigError(
      "PRIORY_OPERATOR",
      `Cannot use "PRIORY_OPERATOR": expected a name of at most ${MAX_OPERATOR_NAME} characters on one line, as the server's pages show it`,
    );
  }
  const url = rawUrl === undefined ? undefined : parseSecureUrl(
    "PRIORY_OPERATOR_URL",
    rawUrl,
    "Set it to a contact or privacy page, such as https://example.com/privacy",
    { originOnly: false },
  );
  if (name === undefined && url === undefined) return undefined;
  return { ...(name === undefined ? {} : { name }), ...(url === undefined ? {} : { url }) };
}

const DEFAULT_GW2ME_URL = "https://gw2.me";

/**
 * `PRIORY_GW2ME_CLIENT_ID`, `PRIORY_GW2ME_CLIENT_SECRET` and `PRIORY_GW2ME_URL`: all or nothing
 * (the id and secret together; the URL only with them), so a half-configured sign-in fails at
 * boot instead of on a player's click.
 */
function parseGw2me(env: EnvGetter): Gw2meConfig | undefined {
  const clientId = blankToUndefined(env("PRIORY_GW2ME_CLIENT_ID"));
  const clientSecret = blankToUndefined(env("PRIORY_GW2ME_CLIENT_SECRET"));
  const rawUrl = blankToUndefined(env("PRIORY_GW2ME_URL"));
  if (clientId === undefined && clientSecret === undefined) {
    if (rawUrl === undefined) return undefined;
    throw new ConfigError(
      "PRIORY_GW2ME_CLIENT_ID",
      'Cannot use "PRIORY_GW2ME_URL" without "PRIORY_GW2ME_CLIENT_ID" and "PRIORY_GW2ME_CLIENT_SECRET": set both (from your gw2.me application, docs/deploy.md) or unset PRIORY_GW2ME_URL',
    );
  }
  if (clientId === undefined || clientSecret === undefined) {
    const [missing, given] = clientId === undefined
      ? ["PRIORY_GW2ME_CLIENT_ID", "PRIORY_GW2ME_CLIENT_SECRET"]
      : ["PRIORY_GW2ME_CLIENT_SECRET", "PRIORY_GW2ME_CLIENT_ID"];
    throw new ConfigError(
      missing,
      `Cannot offer the gw2.me sign-in: "${given}" is set but "${missing}" is not. Set both, from your gw2.me application (docs/deploy.md), or neither`,
    );
  }
  const spaced = /[\s\p{Cc}]/u;
  if (spaced.test(clientId) || spaced.test(clientSecret)) {
    const variable = spaced.test(clientId)
      ? "PRIORY_GW2ME_CLIENT_ID"
      : "PRIORY_GW2ME_CLIENT_SECRET";
    throw new ConfigError(
      variable,
      `Cannot use "${variable}": it contains spaces or controls; copy the value from your gw2.me application again`,
    );
  }
  const url = rawUrl === undefined ? DEFAULT_GW2ME_URL : parseSecureUrl(
    "PRIORY_GW2ME_URL",
    rawUrl,
    `Leave it unset for ${DEFAULT_GW2ME_URL}, or set the origin of another gw2.me (http:// only on a loopback host, such as the fake's http://127.0.0.1:8787)`,
    { originOnly: true },
  );
  return { url, clientId, clientSecret };
}

function parseCatalogue(raw: string | undefined): boolean {
  const value = blankToUndefined(raw)?.toLowerCase();
  if (value === undefined || value === "on") return true;
  if (value === "off") return false;
  throw new ConfigError(
    "PRIORY_CATALOGUE",
    `Cannot use "PRIORY_CATALOGUE": expected on or off, got "${value}". Leave it unset (on) to crawl the whole catalogue in the background, or set off to rely on caching alone`,
  );
}

/** Minutes between Trading Post snapshots when `PRIORY_SNAPSHOT_MINUTES` is unset. */
export const DEFAULT_SNAPSHOT_MINUTES = 5;

function parseSnapshotMinutes(raw: string | undefined): number {
  const value = blankToUndefined(raw);
  if (value === undefined) return DEFAULT_SNAPSHOT_MINUTES;
  const minutes = Number(value);
  if (!/^\d{1,2}$/.test(value) || minutes < 1 || minutes > 60) {
    throw new ConfigError(
      "PRIORY_SNAPSHOT_MINUTES",
      `Cannot use "PRIORY_SNAPSHOT_MINUTES": expected a whole number of minutes from 1 to 60, got "${value}". Leave it unset for a snapshot of the Trading Post every ${DEFAULT_SNAPSHOT_MINUTES} minutes`,
    );
  }
  return minutes;
}
