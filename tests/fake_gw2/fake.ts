/**
 * An in-process fake of the GW2 API v2: each request passes the fake's token bucket, then any
 * queued fault, then the endpoint's own rules, and is logged; latency (if set) delays the
 * answer. No port is opened; `serve.ts` puts the same instance behind `Deno.serve`.
 *
 * @module
 */

import { systemClock } from "../../src/async/clock.ts";
import { authorize, lookupKey, presentedKey, type TestKey } from "./auth.ts";
import { TokenBucket } from "./bucket.ts";
import { countIds } from "./bulk.ts";
import { Control, type FakeControl, type RequestTarget } from "./control.ts";
import { faultResponse, truncated } from "./faults.ts";
import { requestedLang } from "./lang.ts";
import { failure, render, renderBare, TEXT } from "./responses.ts";
import { type ResolvedRoute, resolveRoute } from "./routes.ts";
import { requestedSchema } from "./schema_version.ts";
import { FakeClosedError, linkSignals, never } from "./waits.ts";
import type { MovingMarket } from "./world/market.ts";
import { type FakeWorld, getWorld } from "./world/world.ts";

/** Options of a fake instance. */
export interface FakeGw2Options {
  /** Capacity of the fake's own token bucket (like upstream's, per client). Default 300. */
  readonly rateBurst?: number;
  /** Refill rate of that bucket in tokens a second. Default 5. */
  readonly ratePerSec?: number;
  /** Clock of the fake's bucket and `Expires` headers, epoch ms. Defaults to Date.now. */
  readonly now?: () => number;
  /**
   * How the fake waits for latency; rejects with the signal's reason when it aborts. Defaults
   * to a real timer. Pass a `ManualClock`'s `sleep` to drive latency without waiting.
   */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * A Trading Post that moves with `now` (`world/market.ts`): prices, quantities and order books
   * follow the clock. Opt-in: without it the world's prices never change.
   */
  readonly market?: MovingMarket;
}

/** An in-process fake: serve requests without a port. */
export interface FakeGw2 {
  /**
   * Serves one request; the URL's origin is ignored (only path + query matter), and a path
   * alone (`"/v2/items"`) is accepted. Same call shape as the global `fetch`.
   */
  fetch(input: Request | URL | string, init?: RequestInit): Promise<Response>;
  readonly control: FakeControl;
  /** The deterministic world the fake serves (read-only), for assertions. */
  readonly world: FakeWorld;
}

/** Default bucket capacity (upstream's measured burst). */
export const DEFAULT_RATE_BURST = 300;
/** Default refill rate (upstream's measured 5 tokens a second). */
export const DEFAULT_RATE_PER_SEC = 5;

/** Creates an in-process fake. The world is built on first use and shared between fakes. */
export function createFakeGw2(options: FakeGw2Options = {}): FakeGw2 {
  return new FakeGw2Instance(options);
}

/** A fake instance with the internals `serve.ts` needs (closing, bucket state). */
export class FakeGw2Instance implements FakeGw2 {
  readonly world: FakeWorld;
  readonly #control: Control;
  readonly #bucket: TokenBucket;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly #market: MovingMarket | undefined;
  readonly #lifetime = new AbortController();

  /** @param options see {@linkcode FakeGw2Options} */
  constructor(options: FakeGw2Options = {}) {
    this.world = getWorld();
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? systemClock.sleep;
    this.#market = options.market;
    this.#bucket = new TokenBucket(
      options.rateBurst ?? DEFAULT_RATE_BURST,
      options.ratePerSec ?? DEFAULT_RATE_PER_SEC,
      this.#now,
    );
    this.#control = new Control(() => this.#bucket.fill());
  }

  get control(): Control {
    return this.#control;
  }

  /** Tokens left in the fake's bucket. */
  get tokens(): number {
    return this.#bucket.tokens;
  }

  /** Bound, so `fake.fetch` can be handed around like the global `fetch`. */
  readonly fetch = (input: Request | URL | string, init?: RequestInit): Promise<Response> =>
    this.#handle(toRequest(input, init));

  /** Settles every pending wait (hang, latency) with {@linkcode FakeClosedError}. */
  close(): void {
    this.#lifetime.abort(new FakeClosedError());
  }

  async #handle(request: Request): Promise<Response> {
    const at = this.#now();
    const url = new URL(request.url);
    const route = resolveRoute(url.pathname);
    const target: RequestTarget = { endpoint: route?.endpoint.name, path: url.pathname };
    const key = lookupKey(presentedKey(url.searchParams, request.headers), at);
    const response = await this.#respond(request, url, route, target, key);
    this.#control.record({
      method: request.method,
      path: url.pathname,
      query: withoutAccessToken(url.search),
      idCount: countIds(url.searchParams.get("ids")),
      status: response === "hang" ? 0 : response.status,
      keyLabel: key?.label,
      at,
      ...acceptLanguage(request.headers),
    });
    if (response === "hang") return await this.#hang(request.signal);
    const latency = this.#control.latencyFor(target);
    if (latency > 0) await this.#wait(latency, request.signal);
    return response;
  }

  async #respond(
    request: Request,
    url: URL,
    route: ResolvedRoute | undefined,
    target: RequestTarget,
    key: TestKey | undefined,
  ): Promise<Response | "hang"> {
    if (!this.#bucket.take()) return renderBare(failure(429, TEXT.tooManyRequests));
    const fault = this.#control.takeFault(target);
    if (fault === "hang") return "hang";
    if (fault !== undefined && fault !== "truncated_json") return faultResponse(fault);
    const real = this.#answer(request, url, route, key);
    return fault === "truncated_json" ? await truncated(real) : real;
  }

  #answer(
    request: Request,
    url: URL,
    route: ResolvedRoute | undefined,
    key: TestKey | undefined,
  ): Response {
    if (request.method !== "GET") {
      const response = renderBare(failure(405, TEXT.methodNotAllowed));
      response.headers.set("Allow", "GET");
      return response;
    }
    if (route === undefined) return renderBare(failure(404, TEXT.noSuchEndpoint));
    const { endpoint, capture } = route;
    const lang = requestedLang(url.searchParams, request.headers);
    const options = {
      cacheControl: endpoint.cacheControl,
      language: endpoint.localized ? lang : undefined,
      now: this.#now(),
    };
    if (endpoint.scopes !== undefined) {
      const auth = authorize(key, endpoint.scopes);
      if ("denied" in auth) return render(auth.denied, options);
    }
    const answer = endpoint.answer({
      world: this.world,
      params: url.searchParams,
      schema: requestedSchema(url.searchParams, request.headers),
      key,
      capture,
      books: this.#control.books,
      ...(this.#control.lastModified === undefined
        ? {}
        : { lastModified: this.#control.lastModified }),
      ...(this.#market === undefined ? {} : { market: { moving: this.#market, now: options.now } }),
      lang,
      now: options.now,
    });
    return render(answer, options);
  }

  async #wait(ms: number, signal: AbortSignal): Promise<void> {
    using linked = linkSignals(signal, this.#lifetime.signal);
    await this.#sleep(ms, linked.signal);
  }

  async #hang(signal: AbortSignal): Promise<never> {
    using linked = linkSignals(signal, this.#lifetime.signal);
    return await never(linked.signal);
  }
}

function toRequest(input: Request | URL | string, init?: RequestInit): Request {
  if (input instanceof Request) return init === undefined ? input : new Request(input, init);
  const url = typeof input === "string" && input.startsWith("/")
    ? new URL(input, "http://fake-gw2.invalid")
    : input;
  return new Request(url, init);
}

function acceptLanguage(headers: Headers): { acceptLanguage?: string } {
  const value = headers.get("accept-language");
  return value === null ? {} : { acceptLanguage: value };
}

function withoutAccessToken(search: string): string {
  return search
    .replace(/^\?/u, "")
    .split("&")
    .filter((part) => part !== "" && decodeName(part) !== "access_token")
    .join("&");
}

function decodeName(part: string): string {
  const name = part.split("=", 1)[0] ?? "";
  try {
    return decodeURIComponent(name.replaceAll("+", " "));
  } catch {
    return name;
  }
}
