/**
 * The public mode's addresses and discovery documents. Every URL the server publishes - the
 * issuer, each endpoint, the resource and its metadata document - is built here from
 * `PRIORY_PUBLIC_URL`, never from a request's `Host`, so it is right behind a proxy and on Deno
 * Deploy, and a forged `Host` cannot point a client elsewhere. Pure.
 *
 * @module
 */

import {
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { isLoopbackHost } from "./address.ts";

/** The paths the public mode serves, besides `/mcp`. */
export const AUTH_PATHS = {
  authorize: "/authorize",
  token: "/token",
  register: "/register",
  revoke: "/revoke",
  authorizationServerMetadata: "/.well-known/oauth-authorization-server",
  resourceMetadata: "/.well-known/oauth-protected-resource/mcp",
  resourceMetadataRoot: "/.well-known/oauth-protected-resource",
  /** The players' pages: what the server is, and the end of every sign-in of an account. */
  front: "/",
  signout: "/signout",
  /** Where gw2.me sends the player back (the redirect URI registered with gw2.me). */
  gw2meCallback: "/gw2me/callback",
} as const;

/** Every address the public mode publishes. */
export interface AuthUrls {
  /** The authorization server's issuer: `PRIORY_PUBLIC_URL` itself. */
  readonly issuer: string;
  /** The protected resource (RFC 8707 / RFC 9728): `<issuer>/mcp`. */
  readonly resource: string;
  readonly authorize: string;
  readonly token: string;
  readonly register: string;
  readonly revoke: string;
  /** The resource's metadata document, named in every 401 challenge. */
  readonly resourceMetadata: string;
}

/**
 * The addresses for a public URL (an origin without a trailing slash, as the configuration
 * gives it).
 *
 * @example
 * ```ts
 * authUrls("https://priory.example").resource; // "https://priory.example/mcp"
 * ```
 */
export function authUrls(publicUrl: string): AuthUrls {
  const resource = `${publicUrl}/mcp`;
  return {
    issuer: publicUrl,
    resource,
    authorize: `${publicUrl}${AUTH_PATHS.authorize}`,
    token: `${publicUrl}${AUTH_PATHS.token}`,
    register: `${publicUrl}${AUTH_PATHS.register}`,
    revoke: `${publicUrl}${AUTH_PATHS.revoke}`,
    resourceMetadata: getOAuthProtectedResourceMetadataUrl(new URL(resource)),
  };
}

/** RFC 8414 authorization server metadata, as the contract lists it. */
export function authorizationServerMetadata(urls: AuthUrls): OAuthMetadata & {
  readonly client_id_metadata_document_supported: true;
  readonly authorization_response_iss_parameter_supported: true;
} {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorize,
    token_endpoint: urls.token,
    registration_endpoint: urls.register,
    revocation_endpoint: urls.revoke,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * RFC 9728 protected resource metadata: the SDK's builder (which also checks the issuer is
 * `https:` off loopback) plus the bearer method, header only.
 */
export function protectedResourceMetadata(urls: AuthUrls): Record<string, unknown> {
  const document = buildOAuthProtectedResourceMetadata({
    oauthMetadata: authorizationServerMetadata(urls),
    resourceServerUrl: new URL(urls.resource),
    resourceName: "Priory MCP",
    // The configuration admits http:// only on a loopback host; the SDK knows fewer of them.
    dangerouslyAllowInsecureIssuerUrl: isLoopbackHost(new URL(urls.issuer).hostname),
  });
  return { ...document, bearer_methods_supported: ["header"] };
}
