/**
 * The fetch of a Client ID Metadata Document: the one request this server makes to an address
 * a stranger chose, so it is built to be unable to reach anything internal (SSRF). The host's
 * addresses are resolved first and every one must be public (`address.ts`: no loopback, private,
 * link-local - the cloud metadata service - shared, reserved or multicast address, directly or
 * inside an IPv6 form); the connection then goes to exactly the address that was checked (TCP to
 * that address, then TLS verifying the certificate against the host name, then one HTTP/1.1 GET
 * written here), so a second DNS answer cannot swap in another (rebinding). No redirect is
 * followed, the whole exchange - the name's lookup included - must end within a few seconds, the
 * answer fit in a few kilobytes, and it must be JSON.
 *
 * Besides the GW2 transport's `fetch`, this is the project's only way out of the process: `fetch`
 * cannot be told which address to connect to, and `node:https`'s `lookup` option, which could, is
 * not implemented by Deno 2.5 (Deno Deploy's runtime).
 *
 * @module
 */

import { lookup as dnsLookup } from "node:dns/promises";
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
  /** Fetches from any port, not only 443: for tests, whose servers cannot listen there. */
  readonly anyPort?: boolean;
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
    if (target.port !== "" && options.anyPort !== true) {
      throw new ClientDocumentError("its URL is not on port 443");
    }
    // One bound for the whole exchange, the name's lookup included: the name server is the
    // client's to choose too, and one that holds the query must not hold the page.
    const stop = new AbortController();
    const expired = options.clock.timer(timeoutMs, stop.signal).then(() => true, () => false);
    try {
      const host = target.hostname.replace(/^\[|\]$/g, "");
      let pinned: ResolvedAddress;
      if (isIpLiteral(host)) {
        if (!allowed(host)) throw new ClientDocumentError("its address is not a public one");
        pinned = { address: host, family: host.includes(":") ? 6 : 4 };
      } else {
        const answers = await Promise.race([
          resolve(host).catch(() => []),
          expired.then((): undefined => undefined),
        ]);
        if (answers === undefined) throw new ClientDocumentError(timeoutMessage(timeoutMs));
        const [first] = answers;
        if (first === undefined) throw new ClientDocumentError("its host name does not resolve");
        // One internal answer is enough to refuse: a name that mixes them is not to be trusted.
        if (!answers.every((answer) => allowed(answer.address))) {
          throw new ClientDocumentError("its host name resolves to an address that is not public");
        }
        pinned = first;
      }
      const text = await get(target, pinned, { expired, timeoutMs, maxBytes, ca: options.ca });
      try {
        return JSON.parse(text);
      } catch {
        throw new ClientDocumentError("it is not JSON");
      }
    } finally {
      stop.abort();
    }
  };
}

/** The most header bytes read before the body. */
const MAX_HEAD_BYTES = 8_192;

/**
 * One GET to `url` over a connection to `pinned` only: TCP to that address, TLS verifying the
 * URL's host name, HTTP/1.1 with `Connection: close`; the body as text.
 */
async function get(
  url: URL,
  pinned: ResolvedAddress,
  bounds: {
    /** Resolves `true` once the exchange's time is up (`false` when it ended first). */
    expired: Promise<boolean>;
    timeoutMs: number;
    maxBytes: number;
    ca: string | undefined;
  },
): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port === "" ? 443 : Number(url.port);
  let conn: Deno.Conn | undefined;
  let timedOut = false;
  void bounds.expired.then((expired) => {
    if (!expired) return;
    timedOut = true;
    try {
      conn?.close();
    } catch {
      // already closed
    }
  });
  try {
    let tcp: Deno.TcpConn;
    try {
      tcp = await Deno.connect({ hostname: pinned.address, port });
    } catch {
      throw new ClientDocumentError(
        timedOut ? timeoutMessage(bounds.timeoutMs) : "it could not be reached",
      );
    }
    conn = tcp;
    if (timedOut) throw new ClientDocumentError(timeoutMessage(bounds.timeoutMs));
    try {
      const tls = await Deno.startTls(tcp, {
        hostname: host,
        alpnProtocols: ["http/1.1"],
        ...(bounds.ca === undefined ? {} : { caCerts: [bounds.ca] }),
      });
      conn = tls;
      await tls.handshake();
    } catch {
      throw new ClientDocumentError(
        timedOut ? timeoutMessage(bounds.timeoutMs) : "its TLS certificate could not be verified",
      );
    }
    const request = [
      `GET ${url.pathname}${url.search} HTTP/1.1`,
      `Host: ${url.host}`,
      "Accept: application/json",
      "Accept-Encoding: identity",
      "User-Agent: priory-mcp (client metadata)",
      "Connection: close",
      "",
      "",
    ].join("\r\n");
    const raw = await exchange(conn, new TextEncoder().encode(request), bounds);
    if (timedOut) throw new ClientDocumentError(timeoutMessage(bounds.timeoutMs));
    return readResponse(raw, bounds.maxBytes);
  } catch (error) {
    if (error instanceof ClientDocumentError) throw error;
    throw new ClientDocumentError(
      timedOut ? timeoutMessage(bounds.timeoutMs) : "the connection broke",
    );
  } finally {
    try {
      conn?.close();
    } catch {
      // closed by the timeout, or by the peer
    }
  }
}

function timeoutMessage(timeoutMs: number): string {
  return `it did not answer within ${timeoutMs / 1000} s`;
}

/** Writes the request and reads the whole answer, refusing one larger than the bounds allow. */
async function exchange(
  conn: Deno.Conn,
  request: Uint8Array,
  bounds: { maxBytes: number },
): Promise<Uint8Array> {
  for (let written = 0; written < request.byteLength;) {
    written += await conn.write(request.subarray(written));
  }
  const limit = bounds.maxBytes + MAX_HEAD_BYTES;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const buffer = new Uint8Array(4_096);
  for (;;) {
    const read = await conn.read(buffer);
    if (read === null) break;
    size += read;
    if (size > limit) throw new ClientDocumentError(`it is larger than ${bounds.maxBytes} bytes`);
    chunks.push(buffer.slice(0, read));
  }
  return concat(chunks, size);
}

/**
 * The body of an HTTP/1.1 answer, as text: status 200 only (a redirect is not followed),
 * `Content-Length` or chunked framing, at most `maxBytes`.
 */
function readResponse(raw: Uint8Array, maxBytes: number): string {
  const text = new TextDecoder("latin1").decode(raw);
  const headEnd = text.indexOf("\r\n\r\n");
  if (headEnd === -1) throw new ClientDocumentError("its answer is not HTTP");
  const [statusLine = "", ...headerLines] = text.slice(0, headEnd).split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})\b/.exec(statusLine)?.[1];
  if (status === undefined) throw new ClientDocumentError("its answer is not HTTP");
  if (status.startsWith("3")) {
    throw new ClientDocumentError("it redirects, and redirects are not followed");
  }
  if (status !== "200") throw new ClientDocumentError(`it answered HTTP ${status}`);
  const headers = new Map(headerLines.map((line) => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
  }));
  let body = raw.subarray(headEnd + 4);
  if (/\bchunked\b/i.test(headers.get("transfer-encoding") ?? "")) body = unchunk(body);
  else {
    const declared = headers.get("content-length");
    if (declared !== undefined) {
      if (!/^\d+$/.test(declared) || Number(declared) > body.byteLength) {
        throw new ClientDocumentError("its answer was cut short");
      }
      body = body.subarray(0, Number(declared));
    }
  }
  if (body.byteLength > maxBytes) {
    throw new ClientDocumentError(`it is larger than ${maxBytes} bytes`);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new ClientDocumentError("it is not JSON");
  }
}

/** A chunked body (RFC 9112 §7.1) put back together; trailers are ignored. */
function unchunk(body: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let size = 0;
  let at = 0;
  for (;;) {
    const lineEnd = indexOfCrlf(body, at);
    if (lineEnd === -1) throw new ClientDocumentError("its answer was cut short");
    const sizeText = new TextDecoder().decode(body.subarray(at, lineEnd)).split(";")[0]?.trim() ??
      "";
    if (!/^[0-9a-fA-F]{1,8}$/.test(sizeText)) {
      throw new ClientDocumentError("its answer is not HTTP");
    }
    const length = parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (length === 0) return concat(parts, size);
    if (at + length + 2 > body.byteLength) {
      throw new ClientDocumentError("its answer was cut short");
    }
    parts.push(body.subarray(at, at + length));
    size += length;
    at += length + 2;
  }
}

function indexOfCrlf(bytes: Uint8Array, from: number): number {
  for (let index = from; index + 1 < bytes.byteLength; index++) {
    if (bytes[index] === 13 && bytes[index + 1] === 10) return index;
  }
  return -1;
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}
