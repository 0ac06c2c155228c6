/**
 * Client metadata: what a client says about itself, through dynamic registration (RFC 7591) or
 * a Client ID Metadata Document (the MCP authorization spec's preferred way), checked into the
 * two facts the server keeps - the redirect URIs and the self-given name, shown on the consent
 * page marked as not verified. Only public clients exist here (`token_endpoint_auth_method`
 * `none`, PKCE instead of a secret); everything else a client sends (logos, URIs, contacts) is
 * ignored, so no client-chosen link or image ever reaches the page. Pure.
 *
 * @module
 */

import { checkRedirectUri } from "./redirect.ts";

/** What the server keeps of a client. */
export interface ClientRegistration {
  /** The client's own name for itself, cleaned; not verified by anyone. */
  readonly name?: string;
  /** Every redirect URI the client may use, each checked by {@linkcode checkRedirectUri}. */
  readonly redirectUris: readonly string[];
}

/** A refusal, as RFC 7591 §3.2.2 words it. */
export interface MetadataRefusal {
  readonly error: "invalid_redirect_uri" | "invalid_client_metadata";
  readonly description: string;
}

/** The outcome of reading client metadata. */
export type MetadataRead =
  | { readonly ok: true; readonly client: ClientRegistration }
  | ({ readonly ok: false } & MetadataRefusal);

/** The most redirect URIs one client may register. */
export const MAX_REDIRECT_URIS = 10;
/** A client's name is cut to this many characters. */
export const MAX_CLIENT_NAME = 80;
/** The longest Client ID Metadata Document URL accepted. */
export const MAX_CLIENT_ID_URL = 500;

const GRANT_TYPES = new Set(["authorization_code", "refresh_token"]);
const AUTH_METHODS = new Set(["none", "client_secret_post", "client_secret_basic"]);

/**
 * Reads a dynamic registration request. A confidential method (`client_secret_*`) is accepted
 * and answered as `none`, which RFC 7591 lets a server do: no secret is issued.
 *
 * @example
 * ```ts
 * readRegistration({ redirect_uris: ["http://127.0.0.1:33418/"], client_name: "VS Code" });
 * ```
 */
export function readRegistration(body: unknown): MetadataRead {
  if (!isObject(body)) return refuse("invalid_client_metadata", "the body must be a JSON object");
  const method = body.token_endpoint_auth_method;
  if (method !== undefined && !(typeof method === "string" && AUTH_METHODS.has(method))) {
    return refuse(
      "invalid_client_metadata",
      'token_endpoint_auth_method: only public clients are registered here ("none", with PKCE)',
    );
  }
  return readCommon(body);
}

/**
 * Reads a Client ID Metadata Document fetched from `url`: its `client_id` must be that URL
 * exactly, and it must describe a public client.
 */
export function readMetadataDocument(url: string, body: unknown): MetadataRead {
  if (!isObject(body)) {
    return refuse("invalid_client_metadata", "the client metadata document is not a JSON object");
  }
  if (body.client_id !== url) {
    return refuse(
      "invalid_client_metadata",
      "the client metadata document's client_id is not the URL it was fetched from",
    );
  }
  const method = body.token_endpoint_auth_method;
  if (method !== undefined && method !== "none") {
    return refuse(
      "invalid_client_metadata",
      'token_endpoint_auth_method: only public clients ("none") are supported',
    );
  }
  return readCommon(body);
}

/**
 * Whether `clientId` names a Client ID Metadata Document: an `https:` URL with a path, no
 * fragment, credentials or dot segments (the draft's rules), of reasonable length, on the
 * default port (443): a fetch to any other port would let anyone probe what answers there.
 */
export function isMetadataDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith("https://") || clientId.length > MAX_CLIENT_ID_URL) return false;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return false;
  }
  return url.href === clientId && url.port === "" && url.pathname !== "/" && url.hash === "" &&
    url.username === "" && url.password === "" && !/\/\.\.?(\/|$)/.test(clientId);
}

function readCommon(body: Readonly<Record<string, unknown>>): MetadataRead {
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0) {
    return refuse("invalid_redirect_uri", "redirect_uris must list at least one redirect URI");
  }
  if (uris.length > MAX_REDIRECT_URIS) {
    return refuse("invalid_redirect_uri", `at most ${MAX_REDIRECT_URIS} redirect_uris`);
  }
  const redirectUris: string[] = [];
  for (const uri of uris) {
    if (typeof uri !== "string") {
      return refuse("invalid_redirect_uri", "every redirect URI must be a string");
    }
    const check = checkRedirectUri(uri);
    if (!check.ok) return refuse("invalid_redirect_uri", `${JSON.stringify(uri)}: ${check.reason}`);
    if (!redirectUris.includes(uri)) redirectUris.push(uri);
  }
  const grants = body.grant_types;
  if (
    grants !== undefined &&
    !(Array.isArray(grants) && grants.every((grant) => GRANT_TYPES.has(String(grant))))
  ) {
    return refuse(
      "invalid_client_metadata",
      "grant_types: only authorization_code and refresh_token are supported",
    );
  }
  const responses = body.response_types;
  if (
    responses !== undefined &&
    !(Array.isArray(responses) && responses.every((type) => type === "code"))
  ) {
    return refuse("invalid_client_metadata", 'response_types: only "code" is supported');
  }
  const name = cleanName(body.client_name);
  return { ok: true, client: { ...(name === undefined ? {} : { name }), redirectUris } };
}

/**
 * A client's name as the page may show it: control and formatting characters (which could
 * reorder or hide text) removed, whitespace collapsed, cut to {@linkcode MAX_CLIENT_NAME}.
 * Escaping happens where it is rendered.
 */
export function cleanName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const cleaned = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, "").replace(/\s+/gu, " ").trim();
  if (cleaned === "") return undefined;
  const chars = [...cleaned];
  return chars.length > MAX_CLIENT_NAME
    ? `${chars.slice(0, MAX_CLIENT_NAME - 1).join("")}\u2026`
    : cleaned;
}

function refuse(error: MetadataRefusal["error"], description: string): MetadataRead {
  return { ok: false, error, description };
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
