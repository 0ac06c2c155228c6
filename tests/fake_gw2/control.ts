/**
 * Test-time control of a fake instance: queued faults, added latency, and the request log.
 * Faults and latency can target one endpoint, named canonically (`/v2/items` also matches
 * `/v2/items/19721`; `/v2/characters/:name/inventory` matches every character) or by an exact
 * request path.
 *
 * @module
 */

/** A failure the fake can be told to answer with. */
export type FakeFault =
  /** 500 `{"text":"ErrInternal"}` (JSON). */
  | "server_error"
  /** 503 text/html shutdown page (the whole API disabled). */
  | "html_503"
  /** 503 `{"text":"API not active"}` (one endpoint switched off). */
  | "not_active"
  /** 429 `{"text":"too many requests"}`. */
  | "rate_limited"
  /** 200 application/json with the real body cut in the middle. */
  | "truncated_json"
  /** Never answers until the request's signal aborts or the fake closes. */
  | "hang";

/** Every fault, for validation and documentation. */
export const FAULTS: readonly FakeFault[] = [
  "server_error",
  "html_503",
  "not_active",
  "rate_limited",
  "truncated_json",
  "hang",
];

/**
 * What a book can be made to do (`setBook`): `huge`, too large for upstream to return — every
 * listings request naming it answers 502 with a gateway's HTML page, as the real API does for
 * books of tens of millions of listings; `sold_out`, its sell side emptied since the price was
 * read (the price record still shows the old lowest listing).
 */
export type FakeBookState = "huge" | "sold_out";

/** Every book state, for validation and documentation. */
export const BOOK_STATES: readonly FakeBookState[] = ["huge", "sold_out"];

/** One request the fake served. */
export interface FakeRequestLog {
  readonly method: string;
  /** Path as sent (percent-encoded), e.g. `/v2/items`. */
  readonly path: string;
  /** Query string as sent, WITHOUT `access_token` and without the `?`. */
  readonly query: string;
  /** Number of ids requested via `ids=` (0 when none, and for `ids=all`). */
  readonly idCount: number;
  /** The status answered (or to be answered after latency); 0 for a hang. */
  readonly status: number;
  /** Label of the test key presented (e.g. `full`), never the key; undefined when none. */
  readonly keyLabel: string | undefined;
  /** When the request arrived, on the fake's clock (epoch ms). */
  readonly at: number;
  /** The `Accept-Language` header as sent, if any (a client must never forward a caller's). */
  readonly acceptLanguage?: string;
}

/** Test-time control of the fake. */
export interface FakeControl {
  /** Adds latency to every answer, or only to one endpoint path such as "/v2/items". */
  setLatency(ms: number, endpoint?: string): void;
  /**
   * Makes the next `times` (default 1; Infinity for "until cleared") requests — to `endpoint`
   * only when given, e.g. "/v2/items" — answer with the fault instead of the real answer.
   */
  injectFault(fault: FakeFault, options?: { endpoint?: string; times?: number }): void;
  /** Drops every queued fault. */
  clearFaults(): void;
  /** Makes the order book of `id` huge or sold out (see {@linkcode FakeBookState}); undefined restores it. */
  setBook(id: number, state: FakeBookState | undefined): void;
  /** The books set apart by `setBook`. */
  readonly books: ReadonlyMap<number, FakeBookState>;
  /**
   * Sets `/v2/account`'s `last_modified` (ISO 8601) for every account, so a test can put the
   * account's last play before or after a reset; undefined restores the world's.
   */
  setLastModified(at: string | undefined): void;
  /** The `last_modified` set by `setLastModified`, if any. */
  readonly lastModified: string | undefined;
  /** Every request served since the last reset, oldest first. */
  readonly requests: readonly FakeRequestLog[];
  /** Clears log, faults, latency, book states and `last_modified`; refills the fake's bucket. */
  reset(): void;
  /**
   * Resolves once the log holds at least `count` requests (e.g. to know a request reached the
   * fake before aborting it). An addition to the agreed interface.
   */
  waitForRequests(count: number): Promise<void>;
}

/** A queued fault, as the control route reports it. */
export interface QueuedFault {
  readonly fault: FakeFault;
  readonly endpoint: string | undefined;
  /** Requests left to fail; Infinity until cleared. */
  readonly remaining: number;
}

interface MutableFault {
  readonly fault: FakeFault;
  readonly endpoint: string | undefined;
  remaining: number;
}

/** Where a request goes, for matching faults and latency. */
export interface RequestTarget {
  /** Canonical endpoint name, undefined for paths the fake does not serve. */
  readonly endpoint: string | undefined;
  readonly path: string;
}

/** The control state of one fake instance. */
export class Control implements FakeControl {
  #log: FakeRequestLog[] = [];
  #faults: MutableFault[] = [];
  #globalLatency = 0;
  #latencyByEndpoint = new Map<string, number>();
  #books = new Map<number, FakeBookState>();
  #lastModified: string | undefined;
  #waiters: { readonly count: number; readonly resolve: () => void }[] = [];
  readonly #onReset: () => void;

  /** @param onReset also run on reset (refills the bucket) */
  constructor(onReset: () => void) {
    this.#onReset = onReset;
  }

  setLatency(ms: number, endpoint?: string): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`Cannot set latency: ${ms} is not a finite number of ms >= 0`);
    }
    if (endpoint === undefined) this.#globalLatency = ms;
    else this.#latencyByEndpoint.set(normalizeEndpoint(endpoint), ms);
  }

  injectFault(fault: FakeFault, options: { endpoint?: string; times?: number } = {}): void {
    if (!FAULTS.includes(fault)) throw new TypeError(`Cannot inject fault "${String(fault)}"`);
    const times = options.times ?? 1;
    if (!(times === Infinity || (Number.isInteger(times) && times > 0))) {
      throw new RangeError(`Cannot inject fault: times must be a positive integer, got ${times}`);
    }
    const endpoint = options.endpoint === undefined
      ? undefined
      : normalizeEndpoint(options.endpoint);
    this.#faults.push({ fault, endpoint, remaining: times });
  }

  clearFaults(): void {
    this.#faults = [];
  }

  setBook(id: number, state: FakeBookState | undefined): void {
    if (!Number.isSafeInteger(id) || id <= 0) {
      throw new RangeError(`Cannot set a book: ${id} is not an item id`);
    }
    if (state === undefined) this.#books.delete(id);
    else if (BOOK_STATES.includes(state)) this.#books.set(id, state);
    else throw new TypeError(`Cannot set book state "${String(state)}"`);
  }

  get books(): ReadonlyMap<number, FakeBookState> {
    return new Map(this.#books);
  }

  setLastModified(at: string | undefined): void {
    if (at !== undefined && Number.isNaN(Date.parse(at))) {
      throw new TypeError(`Cannot set last_modified: "${at}" is not an ISO 8601 time`);
    }
    this.#lastModified = at;
  }

  get lastModified(): string | undefined {
    return this.#lastModified;
  }

  get requests(): readonly FakeRequestLog[] {
    return Object.freeze([...this.#log]);
  }

  reset(): void {
    this.#log = [];
    this.#faults = [];
    this.#globalLatency = 0;
    this.#latencyByEndpoint.clear();
    this.#books.clear();
    this.#lastModified = undefined;
    this.#onReset();
  }

  waitForRequests(count: number): Promise<void> {
    if (this.#log.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** The queued faults, oldest first. */
  get faults(): readonly QueuedFault[] {
    return this.#faults.map(({ fault, endpoint, remaining }) => ({ fault, endpoint, remaining }));
  }

  /** The latency settings: global and per endpoint. */
  get latency(): { readonly global: number; readonly endpoints: Readonly<Record<string, number>> } {
    return { global: this.#globalLatency, endpoints: Object.fromEntries(this.#latencyByEndpoint) };
  }

  /** Consumes and returns the first queued fault that applies to the target. */
  takeFault(target: RequestTarget): FakeFault | undefined {
    const index = this.#faults.findIndex((entry) => matches(entry.endpoint, target));
    const entry = this.#faults[index];
    if (entry === undefined) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.#faults.splice(index, 1);
    return entry.fault;
  }

  /** The latency for the target: its endpoint's setting, else the global one. */
  latencyFor(target: RequestTarget): number {
    for (const [endpoint, ms] of this.#latencyByEndpoint) {
      if (matches(endpoint, target)) return ms;
    }
    return this.#globalLatency;
  }

  /** Appends a served request to the log. */
  record(entry: FakeRequestLog): void {
    this.#log.push(Object.freeze(entry));
    const ready = this.#waiters.filter((waiter) => waiter.count <= this.#log.length);
    this.#waiters = this.#waiters.filter((waiter) => waiter.count > this.#log.length);
    for (const waiter of ready) waiter.resolve();
  }
}

function normalizeEndpoint(endpoint: string): string {
  if (!endpoint.startsWith("/")) {
    throw new TypeError(`Cannot target endpoint "${endpoint}": it must start with "/"`);
  }
  return endpoint.length > 1 ? endpoint.replace(/\/+$/u, "") : endpoint;
}

function matches(endpoint: string | undefined, target: RequestTarget): boolean {
  if (endpoint === undefined) return true;
  return endpoint === target.endpoint || endpoint === target.path.replace(/\/+$/u, "");
}
