/**
 * The fetch of a Client ID Metadata Document: the one request this server makes to an address
 * a stranger chose, so it is built to be unable to reach anything internal (SSRF). The host's
 * addresses are resolved first and every one must be public (`address.ts`: no loopback, private,
 * link-local — the cloud metadata service — shared, reserved or multicast address, directly or
 * inside an IPv6 form); the connection then goes to exactly the address that was checked (the
 * socket's `lookup` is pinned to it), so a second DNS answer cannot swap in another (rebinding).
 * TLS still verifies the certificate against the host name. No redirect is followed, the answer
 * must arrive within a few seconds and fit in a few kilobytes, and it must be JSON.
 *
 * This is the project's only use of `node:https`: `fetch` cannot pin the address it connects to.
 *
 * @module
 */

import { lookup as dnsLookup } from "node:dns/promises";
import { request } from "node:https";
import type { LookupFunction } from "node:net";
import type { Clock } from "../async/clock.ts";
import { isIpLiteral, isPublicAddress } from "./address.ts";

/** A resolved address of a host. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Why a document could not be fetched, in words for the page (no internal detail). */
export class ClientDocumentError extends Error {
  /** @param message what went wrong, safe to show */
  constructor(message: string) {
    super(message);
    this.name = "ClientDocumentError";
  }
}

/** Options of {@linkcode createDocumentFetcher}. */
export interface DocumentFetchOptions {
  readonly clock: Clock;
  /** The whole exchange's bound. @default 3000 */
  readonly timeoutMs?: number;
  /** The largest document accepted. @default 5120 */
  readonly maxBytes?: number;
  /** Resolves a host name to all its addresses. @default the system resolver */
  readonly resolve?: (host: string) => Promise<readonly ResolvedAddress[]>;
  /** Which addresses may be connected to. @default public unicast only */
  readonly allowAddress?: (address: string) => boolean;
  /** Extra trusted certificate authorities (PEM), for tests. */
  readonly ca?: string;
}

/** Fetches and parses one document, or rejects with a {@linkcode ClientDocumentError}. */
export type DocumentFetcher = (url: string) => Promise<unknown>;

async function systemResolve(host: string): Promise<readonly ResolvedAddress[]> {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((answer) => ({
    address: answer.address,
    family: answer.family === 6 ? 6 : 4,
  }));
}

/**
 * Builds the guarded fetcher.
 *
 * @example
 * ```ts
 * const fetchDocument = createDocumentFetcher({ clock: systemClock });
 * const document = await fetchDocument("https://claude.ai/oauth/mcp-oauth-client-metadata");
 * ```
 */
export function createDocumentFetcher(options: DocumentFetchOptions): DocumentFetcher {
  const timeoutMs = options.timeoutMs ?? 3_000;
  const maxBytes = options.maxBytes ?? 5_120;
  const resolve = options.resolve ?? systemResolve;
  const allowed = options.allowAddress ?? isPublicAddress;
  return async (url) => {
    const target = new URL(url);
    if (target.protocol !== "https:") throw new ClientDocumentError("its URL is not https://");
    const host = target.hostname.replace(/^\[|\]$/g, "");
    let pinned: ResolvedAddress;
    if (isIpLiteral(host)) {
      if (!allowed(host)) throw new ClientDocumentError("its address is not a public one");
      pinned = { address: host, family: host.includes(":") ? 6 : 4 };
    } else {
      let answers: readonly ResolvedAddress[];
      try {
        answers = await resolve(host);
      } catch {
        throw new ClientDocumentError("its host name does not resolve");
      }
      const [first] = answers;
      if (first === undefined) throw new ClientDocumentError("its host name does not resolve");
      // One internal answer is enough to refuse: a name that mixes them is not to be trusted.
      if (!answers.every((answer) => allowed(answer.address))) {
        throw new ClientDocumentError("its host name resolves to an address that is not public");
      }
      pinned = first;
    }
    const text = await get(target, pinned, {
      timeoutMs,
      maxBytes,
      clock: options.clock,
      ca: options.ca,
    });
    try {
      return JSON.parse(text);
    } catch {
      throw new ClientDocumentError("it is not JSON");
    }
  };
}

/** One GET to `url`, connected to `pinned` only; the body as text. */
function get(
  url: URL,
  pinned: ResolvedAddress,
  bounds: { timeoutMs: number; maxBytes: number; clock: Clock; ca: string | undefined },
): Promise<string> {
  const lookup: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all === true) {
      callback(null, [{ address: pinned.address, family: pinned.family }]);
    } else callback(null, pinned.address, pinned.family);
  };
  return new Promise<string>((resolve, reject) => {
    const stop = new AbortController();
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      stop.abort();
      outcome();
    };
    const fail = (message: string) => {
      finish(() => reject(new ClientDocumentError(message)));
      outgoing.destroy();
    };
    const outgoing = request({
      host: url.hostname.replace(/^\[|\]$/g, ""),
      servername: isIpLiteral(url.hostname) ? undefined : url.hostname,
      port: url.port === "" ? 443 : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers: { accept: "application/json", "user-agent": "priory-mcp (client metadata)" },
      lookup,
      agent: false,
      ...(bounds.ca === undefined ? {} : { ca: bounds.ca }),
    }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        return fail("it redirects, and redirects are not followed");
      }
      if (status !== 200) return fail(`it answered HTTP ${status}`);
      const declared = Number(response.headers["content-length"] ?? "0");
      if (declared > bounds.maxBytes) return fail(`it is larger than ${bounds.maxBytes} bytes`);
      const chunks: Uint8Array[] = [];
      let size = 0;
      response.on("data", (chunk: Uint8Array) => {
        size += chunk.byteLength;
        if (size > bounds.maxBytes) return fail(`it is larger than ${bounds.maxBytes} bytes`);
        chunks.push(chunk);
      });
      response.on("end", () => {
        const body = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          body.set(chunk, offset);
          offset += chunk.byteLength;
        }
        finish(() => resolve(new TextDecoder().decode(body)));
      });
      response.on("error", () => fail("the connection broke"));
    });
    outgoing.on("error", () => fail("it could not be reached"));
    bounds.clock.timer(bounds.timeoutMs, stop.signal).then(
      () => fail(`it did not answer within ${bounds.timeoutMs / 1000} s`),
      () => undefined,
    );
    outgoing.end();
  });
}
