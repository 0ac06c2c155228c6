/**
 * Who a `client_id` is. Two kinds exist, both public clients:
 * - **Registered** (RFC 7591): the id *is* the registration - its redirect URIs and name and a
 *   random part, signed with the server's secret (`pcl.<data>.<mac>`). Nothing is stored, so registration cannot
 *   fill the database, ids never expire, and a forged or altered id fails the signature. A new
 *   `PRIORY_SECRET` invalidates them, and clients answered `invalid_client` register again.
 * - **Client ID Metadata Documents**: an `https://` id is fetched (through the SSRF-guarded
 *   `document_fetch.ts`) and its `redirect_uris` bind.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import {
  type ClientRegistration,
  isMetadataDocumentUrl,
  type MetadataRead,
  readMetadataDocument,
} from "./client_metadata.ts";
import { type AuthSecrets, randomId } from "./crypto.ts";
import { ClientDocumentError, type DocumentFetcher } from "./document_fetch.ts";

/** The longest registered client id issued; a registration that would exceed it is refused. */
export const MAX_CLIENT_ID_LENGTH = 4_000;

/** A client as the authorization endpoint sees it. */
export interface KnownClient extends ClientRegistration {
  readonly clientId: string;
  readonly kind: "registered" | "metadata-document";
}

/** The outcome of resolving a `client_id`. */
export type ClientLookup =
  | { readonly ok: true; readonly client: KnownClient }
  | { readonly ok: false; readonly reason: "unknown" }
  | { readonly ok: false; readonly reason: "document"; readonly detail: string };

/** Issues and resolves client ids. */
export class Clients {
  readonly #secrets: AuthSecrets;
  readonly #fetchDocument: DocumentFetcher;

  /** @param secrets signs registered ids; @param fetchDocument reads metadata documents */
  constructor(secrets: AuthSecrets, fetchDocument: DocumentFetcher) {
    this.#secrets = secrets;
    this.#fetchDocument = fetchDocument;
  }

  /** The id of a new registration, or `undefined` when it would be too long to carry. */
  async register(registration: ClientRegistration): Promise<string | undefined> {
    // A random part makes every registration its own client, even with the same metadata.
    const data = Buffer.from(JSON.stringify({
      i: randomId(9),
      r: registration.redirectUris,
      ...(registration.name === undefined ? {} : { n: registration.name }),
    })).toString("base64url");
    const id = await this.#secrets.sign("client", `pcl.${data}`);
    return id.length > MAX_CLIENT_ID_LENGTH ? undefined : id;
  }

  /**
   * Whether `clientId` may be a known client without fetching anything: a well-signed
   * registered id, or a metadata document URL (which is read only at the authorization step).
   */
  async isPlausible(clientId: string): Promise<boolean> {
    if (isMetadataDocumentUrl(clientId)) return true;
    return (await this.#registered(clientId)) !== undefined;
  }

  /** Resolves a `client_id` (fetching a metadata document when it is one). */
  async resolve(clientId: string): Promise<ClientLookup> {
    if (isMetadataDocumentUrl(clientId)) {
      let document: unknown;
      try {
        document = await this.#fetchDocument(clientId);
      } catch (error) {
        const detail = error instanceof ClientDocumentError ? error.message : "it failed";
        return { ok: false, reason: "document", detail };
      }
      const read: MetadataRead = readMetadataDocument(clientId, document);
      if (!read.ok) return { ok: false, reason: "document", detail: read.description };
      return { ok: true, client: { ...read.client, clientId, kind: "metadata-document" } };
    }
    const registered = await this.#registered(clientId);
    return registered === undefined
      ? { ok: false, reason: "unknown" }
      : { ok: true, client: { ...registered, clientId, kind: "registered" } };
  }

  async #registered(clientId: string): Promise<ClientRegistration | undefined> {
    if (!clientId.startsWith("pcl.") || clientId.length > MAX_CLIENT_ID_LENGTH) return undefined;
    const payload = await this.#secrets.unsign("client", clientId);
    if (payload === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(
        Buffer.from(payload.slice("pcl.".length), "base64url").toString("utf8"),
      );
      if (typeof value !== "object" || value === null) return undefined;
      const uris: unknown = Reflect.get(value, "r");
      const name: unknown = Reflect.get(value, "n");
      if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === "string")) return undefined;
      return { redirectUris: uris, ...(typeof name === "string" ? { name } : {}) };
    } catch {
      return undefined;
    }
  }
}
