/**
 * The control route of a listening fake, `/__control/…`, JSON over HTTP, for the standalone
 * `deno task fake-gw2` (tests use `fake.control` directly). Control requests bypass the
 * bucket, faults, latency and the request log.
 *
 * | Method + path               | Body                                   | Effect                 |
 * |-----------------------------|----------------------------------------|------------------------|
 * | GET /__control              |                                        | state                  |
 * | GET /__control/requests     |                                        | the request log        |
 * | POST /__control/latency     | `{"ms": 250, "endpoint"?: "/v2/items"}` | set latency            |
 * | POST /__control/fault       | `{"fault": "hang", "endpoint"?: …, "times"?: 3 or "infinite"}` | queue a fault |
 * | DELETE /__control/faults    |                                        | clear faults           |
 * | POST /__control/book        | `{"id": 19721, "state": "huge" or "sold_out" or null}` | set a book apart |
 * | POST /__control/modified    | `{"at": "2026-11-30T07:00:00Z" or null}` | `/v2/account`'s `last_modified` |
 * | POST /__control/reset       |                                        | clear log, faults, latency, books, `last_modified`; refill bucket |
 *
 * Mutations answer with the new state.
 *
 * @module
 */

import { BOOK_STATES, type FakeBookState, type FakeFault, FAULTS } from "./control.ts";
import type { FakeGw2Instance } from "./fake.ts";

/** Path prefix of the control route. */
export const CONTROL_PREFIX = "/__control";

/** Whether a request path belongs to the control route. */
export function isControlPath(pathname: string): boolean {
  return pathname === CONTROL_PREFIX || pathname.startsWith(`${CONTROL_PREFIX}/`);
}

/** Answers a control request. */
export async function controlRoute(request: Request, fake: FakeGw2Instance): Promise<Response> {
  const path = new URL(request.url).pathname.slice(CONTROL_PREFIX.length).replace(/\/+$/u, "");
  const route = `${request.method} ${path === "" ? "/" : path}`;
  try {
    switch (route) {
      case "GET /":
      case "GET /state":
        return json(200, state(fake));
      case "GET /requests":
        return json(
          200,
          fake.control.requests.map((entry) => ({ ...entry, keyLabel: entry.keyLabel ?? null })),
        );
      case "POST /latency": {
        const body = await readBody(request);
        fake.control.setLatency(numberField(body, "ms"), optionalString(body, "endpoint"));
        return json(200, state(fake));
      }
      case "POST /fault": {
        const body = await readBody(request);
        const endpoint = optionalString(body, "endpoint");
        const times = timesField(body);
        fake.control.injectFault(faultField(body), {
          ...(endpoint === undefined ? {} : { endpoint }),
          ...(times === undefined ? {} : { times }),
        });
        return json(200, state(fake));
      }
      case "POST /book": {
        const body = await readBody(request);
        fake.control.setBook(numberField(body, "id"), bookStateField(body));
        return json(200, state(fake));
      }
      case "POST /modified": {
        fake.control.setLastModified(optionalString(await readBody(request), "at"));
        return json(200, state(fake));
      }
      case "DELETE /faults":
        fake.control.clearFaults();
        return json(200, state(fake));
      case "POST /reset":
        fake.control.reset();
        return json(200, state(fake));
      default:
        return json(404, { text: `no such control route: ${route}` });
    }
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) {
      return json(400, { text: error.message });
    }
    throw error;
  }
}

function state(fake: FakeGw2Instance): object {
  return {
    latency: fake.control.latency,
    faults: fake.control.faults.map((entry) => ({
      fault: entry.fault,
      endpoint: entry.endpoint ?? null,
      remaining: entry.remaining === Infinity ? "infinite" : entry.remaining,
    })),
    books: Object.fromEntries(fake.control.books),
    lastModified: fake.control.lastModified ?? null,
    requests: fake.control.requests.length,
    bucketTokens: Math.floor(fake.tokens),
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8" },
  });
}

type Body = Readonly<Record<string, unknown>>;

async function readBody(request: Request): Promise<Body> {
  const text = await request.text();
  if (text.trim() === "") return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError("Cannot read the control request: the body must be a JSON object");
  }
  return Object.fromEntries(Object.entries(value));
}

function numberField(body: Body, name: string): number {
  const value = body[name];
  if (typeof value !== "number") throw new TypeError(`Cannot read "${name}": expected a number`);
  return value;
}

function optionalString(body: Body, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new TypeError(`Cannot read "${name}": expected a string`);
  return value;
}

function faultField(body: Body): FakeFault {
  const value = body.fault;
  const fault = FAULTS.find((candidate) => candidate === value);
  if (fault === undefined) {
    throw new TypeError(`Cannot read "fault": expected one of ${FAULTS.join(", ")}`);
  }
  return fault;
}

function bookStateField(body: Body): FakeBookState | undefined {
  const value = body.state;
  if (value === undefined || value === null) return undefined;
  const state = BOOK_STATES.find((candidate) => candidate === value);
  if (state === undefined) {
    throw new TypeError(`Cannot read "state": expected one of ${BOOK_STATES.join(", ")} or null`);
  }
  return state;
}

function timesField(body: Body): number | undefined {
  const value = body.times;
  if (value === undefined || value === null) return undefined;
  if (value === "infinite") return Infinity;
  if (typeof value !== "number") {
    throw new TypeError('Cannot read "times": expected a positive integer or "infinite"');
  }
  return value;
}
