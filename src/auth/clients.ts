/**
 * Who a `client_id` is. Two kinds exist, both public clients:
 * - **Registered** (RFC 7591): the id *is* the registration - its redirect URIs and name and a
 *   random part, signed with the server's secret (`pcl.<data>.<mac>`). Nothing is stored, so registration cannot
 *   fill the database, ids never expire, and a forged or altered id fails the signature. A new
 *   `PRIORY_SECRET` invalidates them, and clients answered `invalid_client` register again.
 * - **Client ID Metadata Documents**: an `https://` id (on port 443) is fetched (through the
 *   SSRF-guarded `document_fetch.ts`) and its `redirect_uris` bind. Anyone can make this server
 *   fetch a URL of their choosing by opening `/authorize`, so what a URL's fetch gave - a failure
 *   too - is kept for a while ({@linkcode DOCUMENT_KEPT_MS}, {@linkcode DOCUMENT_FAILURE_KEPT_MS})
 *   and fetches of one host are limited ({@linkcode HOST_FETCHES_BURST},
 *   {@linkcode HOST_FETCHES_PER_MINUTE}): no one can turn the server into a stream of requests at
 *   a host of theirs or someone else's.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { Clock } from "../async/clock.ts";
import { CallRate } from "./call_rate.ts";
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

/** How long a fetched client metadata document is used before it is fetched again. */
export const DOCUMENT_KEPT_MS = 10 * 60_000;
/** How long a failed fetch (or an unusable document) is answered without fetching again. */
export const DOCUMENT_FAILURE_KEPT_MS = 60_000;
/** Document fetches of one host at once after a pause. */
export const HOST_FETCHES_BURST = 5;
/** Document fetches of one host per minute, sustained. */
export const HOST_FETCHES_PER_MINUTE = 10;
/** URLs whose outcome is kept at most; the oldest go first. */
const DOCUMENTS_KEPT = 1_000;

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

interface KeptLookup {
  readonly lookup: Promise<ClientLookup>;
  readonly until: number;
}

/** Issues and resolves client ids. */
export class Clients {
  readonly #secrets: AuthSecrets;
  readonly #fetchDocument: DocumentFetcher;
  readonly #clock: Clock;
  /** Each document URL's outcome, while it is kept (a fetch under way included). */
  readonly #documents = new Map<string, KeptLookup>();
  readonly #hostFetches: CallRate;

  /**
   * @param secrets signs registered ids
   * @param fetchDocument reads metadata documents
   * @param clock how long outcomes are kept
   */
  constructor(secrets: AuthSecrets, fetchDocument: DocumentFetcher, clock: Clock) {
    this.#secrets = secrets;
    this.#fetchDocument = fetchDocument;
    this.#clock = clock;
    this.#hostFetches = new CallRate({
      burst: HOST_FETCHES_BURST,
      perMinute: HOST_FETCHES_PER_MINUTE,
      clock,
    });
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

  /** Resolves a `client_id` (fetching a metadata document when it is one, and not kept). */
  async resolve(clientId: string): Promise<ClientLookup> {
    if (isMetadataDocumentUrl(clientId)) return await this.#document(clientId);
    const registered = await this.#registered(clientId);
    return registered === undefined
      ? { ok: false, reason: "unknown" }
      : { ok: true, client: { ...registered, clientId, kind: "registered" } };
  }

  /** A metadata document's client: kept, or fetched (once, however many ask at once). */
  #document(url: string): Promise<ClientLookup> {
    const now = this.#clock.now();
    const kept = this.#documents.get(url);
    if (kept !== undefined && kept.until > now) return kept.lookup;
    this.#documents.delete(url);
    if (this.#hostFetches.take(new URL(url).hostname, 1) > 0) {
      const refused: ClientLookup = {
        ok: false,
        reason: "document",
        detail: "its host's documents were fetched too often just now",
      };
      return Promise.resolve(refused);
    }
    const lookup = this.#fetchAndRead(url);
    // Kept from now while it is fetched (one fetch for concurrent asks), then for as long as
    // its outcome deserves.
    this.#keep(url, lookup, now + DOCUMENT_KEPT_MS);
    void lookup.then((outcome) => {
      if (!outcome.ok && this.#documents.get(url)?.lookup === lookup) {
        this.#keep(url, lookup, this.#clock.now() + DOCUMENT_FAILURE_KEPT_MS);
      }
    });
    return lookup;
  }

  async #fetchAndRead(url: string): Promise<ClientLookup> {
    let document: unknown;
    try {
      document = await this.#fetchDocument(url);
    } catch (error) {
      const detail = error instanceof ClientDocumentError ? error.message : "it failed";
      return { ok: false, reason: "document", detail };
    }
    const read: MetadataRead = readMetadataDocument(url, document);
    if (!read.ok) return { ok: false, reason: "document", detail: read.description };
    return { ok: true, client: { ...read.client, clientId: url, kind: "metadata-document" } };
  }

  #keep(url: string, lookup: Promise<ClientLookup>, until: number): void {
    this.#documents.delete(url);
    this.#documents.set(url, { lookup, until });
    for (const oldest of this.#documents.keys()) {
      if (this.#documents.size <= DOCUMENTS_KEPT) break;
      this.#documents.delete(oldest);
    }
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
