/**
 * The public mode in tests: an in-process app with `PRIORY_AUTH=oauth`, the steps of a sign-in
 * as a client and a player's browser perform them (registration, the consent page, the answer,
 * the token exchange), each on its own so a test can break one, and an `OAuthClientProvider` for
 * the MCP SDK client whose "browser" answers the consent page with a given key.
 *
 * @module
 */

import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from "@modelcontextprotocol/client";
import { Buffer } from "node:buffer";
import { startTestApp, type TestApp, type TestAppOptions } from "./app.ts";

/** The public URL of in-process public apps (requests go to `http://localhost/…`). */
export const PUBLIC_URL = "http://localhost";
/** The resource tokens are issued for. */
export const RESOURCE = `${PUBLIC_URL}/mcp`;
/** A `PRIORY_SECRET` for tests. */
export const TEST_SECRET = "test-secret-for-the-public-mode-0123456789";
/** A loopback redirect URI of a native client. */
export const CALLBACK = "http://127.0.0.1:53682/callback";

/** The environment of the public mode. */
export const PUBLIC_ENV: Readonly<Record<string, string>> = {
  PRIORY_AUTH: "oauth",
  PRIORY_PUBLIC_URL: PUBLIC_URL,
  PRIORY_SECRET: TEST_SECRET,
};

/** An in-process app in the public mode (the static token stays set unless `env` clears it). */
export function startPublicApp(options: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({ ...options, env: { ...PUBLIC_ENV, ...options.env } });
}

/** A request handler (`info` as `Deno.serve` gives it: the client's address). */
export type Handler = (request: Request, info?: Deno.ServeHandlerInfo) => Promise<Response>;

/** What `Deno.serve` would say of a connection from `address`. */
export function fromAddress(address: string): Deno.ServeHandlerInfo {
  return {
    remoteAddr: { transport: "tcp", hostname: address, port: 40_000 },
    completed: Promise.resolve(),
  };
}

/** A PKCE pair (S256). */
export interface Pkce {
  readonly verifier: string;
  readonly challenge: string;
}

/** A fresh PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<Pkce> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: Buffer.from(digest).toString("base64url") };
}

/** Registers a client (RFC 7591); returns the answer's JSON. */
export async function register(
  handler: Handler,
  metadata: Record<string, unknown> = { redirect_uris: [CALLBACK], client_name: "Test client" },
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await handler(
    new Request(`${PUBLIC_URL}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(metadata),
    }),
  );
  return { status: response.status, body: await response.json() };
}

/** A registered client's id (fails the test otherwise). */
export async function registeredClient(
  handler: Handler,
  redirectUris: readonly string[] = [CALLBACK],
): Promise<string> {
  const { status, body } = await register(handler, {
    redirect_uris: redirectUris,
    client_name: "Test client",
  });
  if (status !== 201 || typeof body.client_id !== "string") {
    throw new Error(`registration failed: ${status} ${JSON.stringify(body)}`);
  }
  return body.client_id;
}

/** The authorization request URL; `params` override or (with `undefined`) drop parameters. */
export function authorizeUrl(params: Record<string, string | undefined>): string {
  const url = new URL(`${PUBLIC_URL}/authorize`);
  const all: Record<string, string | undefined> = {
    response_type: "code",
    code_challenge_method: "S256",
    resource: RESOURCE,
    state: "state-123",
    ...params,
  };
  for (const [name, value] of Object.entries(all)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}

/** A consent page as a browser received it. */
export interface ConsentPage {
  /** Where it was fetched from: its form posts back to that origin. */
  readonly origin: string;
  readonly response: Response;
  readonly html: string;
  /** The hidden `request` field. */
  readonly request: string | undefined;
  /** The page's CSRF cookie as `name=value`. */
  readonly cookie?: string;
}

/** GETs an authorization URL the way a browser does. */
export async function openConsent(
  handler: Handler,
  url: string,
  headers: Record<string, string> = {},
): Promise<ConsentPage> {
  const response = await handler(new Request(url, { headers }));
  return await readConsent(response, new URL(url).origin);
}

/** Reads a consent page answer (also the one a POST shows again) from `origin`. */
export async function readConsent(
  response: Response,
  origin: string = PUBLIC_URL,
): Promise<ConsentPage> {
  const html = await response.text();
  const field = /name="request" value="([^"]*)"/.exec(html)?.[1];
  const cookie = response.headers.getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .find((pair) => /^(__Host-)?priory_consent_/.test(pair) && !pair.endsWith("="));
  return {
    origin,
    response,
    html,
    request: field === undefined ? undefined : unescapeHtml(field),
    ...(cookie === undefined ? {} : { cookie }),
  };
}

/** What a consent answer carries; `undefined` leaves a part out. */
export interface ConsentAnswer {
  readonly decision?: string;
  readonly key?: string;
  /** The hidden field; defaults to the page's (`undefined` given: left out). */
  readonly request?: string | undefined;
  /** The cookie header; defaults to the page's cookie (`undefined` given: left out). */
  readonly cookie?: string | undefined;
  readonly origin?: string;
  /** The sender's address (what the key check's limits count by); none when absent. */
  readonly clientAddress?: string;
}

/** POSTs the consent form as a browser would. */
export function answerConsent(
  handler: Handler,
  page: ConsentPage,
  answer: ConsentAnswer,
): Promise<Response> {
  const form = new URLSearchParams();
  const request = "request" in answer ? answer.request : page.request;
  if (request !== undefined) form.set("request", request);
  if (answer.key !== undefined) form.set("gw2_key", answer.key);
  if (answer.decision !== undefined) form.set("decision", answer.decision);
  const cookie = "cookie" in answer ? answer.cookie : page.cookie;
  return handler(
    new Request(`${page.origin}/authorize`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: answer.origin ?? page.origin,
        ...(cookie === undefined ? {} : { cookie }),
      },
      body: form.toString(),
    }),
    answer.clientAddress === undefined ? undefined : fromAddress(answer.clientAddress),
  );
}

/** POSTs a form to the token (or revocation) endpoint; the answer's status and JSON. */
export async function postForm(
  handler: Handler,
  path: "/token" | "/revoke",
  params: Record<string, string | undefined>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) form.set(name, value);
  }
  const response = await handler(
    new Request(`${PUBLIC_URL}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : JSON.parse(text) };
}

/** The query of a redirect's `Location`. */
export function redirectParams(response: Response): URLSearchParams {
  const location = response.headers.get("location");
  if (location === null) throw new Error(`expected a redirect, got ${response.status}`);
  return new URL(location).searchParams;
}

/** A finished consent: the code and the rest of what a client needs to exchange it. */
export interface Authorized {
  readonly clientId: string;
  readonly code: string;
  readonly verifier: string;
  readonly redirectUri: string;
}

/** Registers (unless `clientId` is given), opens the consent page and allows with `key`. */
export async function authorize(
  handler: Handler,
  key: string,
  options: { clientId?: string; redirectUri?: string } = {},
): Promise<Authorized> {
  const redirectUri = options.redirectUri ?? CALLBACK;
  const clientId = options.clientId ?? await registeredClient(handler, [redirectUri]);
  const { verifier, challenge } = await pkce();
  const page = await openConsent(
    handler,
    authorizeUrl({ client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge }),
  );
  const answer = await answerConsent(handler, page, { decision: "allow", key });
  const code = redirectParams(answer).get("code");
  if (code === null) throw new Error("the consent answer carried no code");
  return { clientId, code, verifier, redirectUri };
}

/** Tokens of a sign-in. */
export interface SignedIn {
  readonly clientId: string;
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** Exchanges a finished consent's code; `override` changes (or, `undefined`, drops) parameters. */
export function exchangeCode(
  handler: Handler,
  done: Authorized,
  override: Record<string, string | undefined> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return postForm(handler, "/token", {
    grant_type: "authorization_code",
    code: done.code,
    code_verifier: done.verifier,
    redirect_uri: done.redirectUri,
    client_id: done.clientId,
    resource: RESOURCE,
    ...override,
  });
}

/** A whole sign-in with `key`: registration, consent, code exchange. */
export async function signIn(handler: Handler, key: string): Promise<SignedIn> {
  const done = await authorize(handler, key);
  const { status, body } = await exchangeCode(handler, done);
  if (status !== 200 || typeof body.access_token !== "string") {
    throw new Error(`token exchange failed: ${status} ${JSON.stringify(body)}`);
  }
  return {
    clientId: done.clientId,
    accessToken: body.access_token,
    refreshToken: String(body.refresh_token),
  };
}

/**
 * An MCP SDK OAuth client provider whose browser is this file's consent steps: on
 * `redirectToAuthorization` it opens the page and allows with `key`, keeping the code for
 * `transport.finishAuth`. Everything else is the SDK's own flow (discovery from the 401,
 * registration or a metadata document, PKCE, `resource`, the `iss` check, the exchange).
 */
export class ConsentingProvider implements OAuthClientProvider {
  readonly #handler: Handler;
  readonly #key: string;
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = "";
  #discovery: OAuthDiscoveryState | undefined;
  /** The code the consent page's answer carried, once it has. */
  code: string | undefined;
  /** The `iss` of that answer. */
  iss: string | undefined;
  /** Optional: use a Client ID Metadata Document instead of registration. */
  readonly clientMetadataUrl?: string;

  /** @param handler the app; @param key what the player types; @param metadataUrl CIMD id */
  constructor(handler: Handler, key: string, metadataUrl?: string) {
    this.#handler = handler;
    this.#key = key;
    if (metadataUrl !== undefined) this.clientMetadataUrl = metadataUrl;
  }

  get redirectUrl(): string {
    return CALLBACK;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK test client",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.#client = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const page = await openConsent(this.#handler, url.href);
    const answer = await answerConsent(this.#handler, page, { decision: "allow", key: this.#key });
    const params = redirectParams(answer);
    this.code = params.get("code") ?? undefined;
    this.iss = params.get("iss") ?? undefined;
  }
}

function unescapeHtml(value: string): string {
  return value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] ?? "",
  );
}
