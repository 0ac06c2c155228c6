/**
 * The token (RFC 6749 §3.2), registration (RFC 7591) and revocation (RFC 7009) endpoints: each
 * reads its body, asks `grants.ts` or `clients.ts`, and answers OAuth JSON with CORS. Clients are
 * public: they name themselves with `client_id` (in the form or as the user part of HTTP Basic)
 * and prove nothing else; PKCE and the tokens' secrets do the proving.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import type { Logger } from "../log.ts";
import { readRegistration } from "./client_metadata.ts";
import type { Clients } from "./clients.ts";
import type { Grants } from "./grants.ts";
import { oauthError, oauthJson } from "./responses.ts";

/** What the endpoints need. */
export interface EndpointDeps {
  readonly clients: Clients;
  readonly grants: Grants;
  readonly clock: Clock;
  readonly log: Logger;
}

const FORM_TYPE = "application/x-www-form-urlencoded";

/** `POST /token`. */
export async function tokenEndpoint(
  deps: EndpointDeps,
  request: Request,
  body: Uint8Array,
): Promise<Response> {
  const form = readForm(request, body);
  if (typeof form === "string") return oauthError("invalid_request", form);
  const clientId = clientOf(request, form);
  if (clientId === undefined) {
    return oauthError("invalid_client", "client_id is missing: name the client");
  }
  if (!(await deps.clients.isPlausible(clientId))) {
    // 401 invalid_client: hosts then register again (a new PRIORY_SECRET voids registrations).
    return oauthError("invalid_client", "unknown client_id: register the client again");
  }
  const resource = form.get("resource") ?? undefined;
  const grantType = form.get("grant_type");
  let outcome;
  if (grantType === "authorization_code") {
    const code = form.get("code");
    if (code === null) return oauthError("invalid_request", "code is missing");
    outcome = await deps.grants.exchangeCode({
      code,
      clientId,
      redirectUri: form.get("redirect_uri") ?? undefined,
      verifier: form.get("code_verifier") ?? undefined,
      resource,
    });
  } else if (grantType === "refresh_token") {
    const token = form.get("refresh_token");
    if (token === null) return oauthError("invalid_request", "refresh_token is missing");
    outcome = await deps.grants.refresh(token, clientId, resource);
  } else {
    return oauthError(
      grantType === null ? "invalid_request" : "unsupported_grant_type",
      "grant_type must be authorization_code or refresh_token",
    );
  }
  if (!outcome.ok) {
    deps.log.info("auth token refused", { grantType, error: outcome.error });
    return oauthError(outcome.error, outcome.description);
  }
  return oauthJson(200, outcome.body);
}

/** `POST /register`: a public client; its id carries the registration. */
export async function registerEndpoint(
  deps: EndpointDeps,
  request: Request,
  body: Uint8Array,
): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    return oauthError("invalid_client_metadata", "send the client metadata as application/json");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return oauthError("invalid_client_metadata", "the body is not JSON");
  }
  const read = readRegistration(parsed);
  if (!read.ok) {
    deps.log.info("auth registration refused", { error: read.error });
    return oauthError(read.error, read.description);
  }
  const clientId = await deps.clients.register(read.client);
  if (clientId === undefined) {
    return oauthError("invalid_client_metadata", "the redirect URIs are too long in total");
  }
  deps.log.info("auth client registered", { redirects: read.client.redirectUris.length });
  return oauthJson(201, {
    client_id: clientId,
    client_id_issued_at: Math.floor(deps.clock.now() / 1000),
    redirect_uris: read.client.redirectUris,
    ...(read.client.name === undefined ? {} : { client_name: read.client.name }),
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  });
}

/** `POST /revoke`: ends the grant of an access or refresh token; 200 for unknown tokens too. */
export async function revokeEndpoint(
  deps: EndpointDeps,
  request: Request,
  body: Uint8Array,
): Promise<Response> {
  const form = readForm(request, body);
  if (typeof form === "string") return oauthError("invalid_request", form);
  const token = form.get("token");
  if (token === null) return oauthError("invalid_request", "token is missing");
  const ok = await deps.grants.revoke(token, clientOf(request, form));
  if (!ok) return oauthError("invalid_client", "the token was issued to another client");
  return new Response(null, {
    status: 200,
    headers: { "cache-control": "no-store", "access-control-allow-origin": "*" },
  });
}

/**
 * The form of a token or revocation request, or why it cannot be read: the media type must be
 * form-encoded and no parameter may repeat (RFC 6749 §3.2).
 */
function readForm(request: Request, body: Uint8Array): URLSearchParams | string {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith(FORM_TYPE)) return `send the parameters as ${FORM_TYPE}`;
  const form = new URLSearchParams(new TextDecoder().decode(body));
  const names = [...form.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  return repeated === undefined ? form : `the parameter ${repeated} is repeated`;
}

/** `client_id` from the form, or from HTTP Basic (whose password a public client has none of). */
function clientOf(request: Request, form: URLSearchParams): string | undefined {
  const fromForm = form.get("client_id") ?? undefined;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(request.headers.get("authorization") ?? "");
  if (basic?.[1] === undefined) return fromForm;
  let user: string;
  try {
    user = decodeURIComponent(atob(basic[1]).split(":")[0] ?? "");
  } catch {
    return fromForm;
  }
  return fromForm ?? (user === "" ? undefined : user);
}
