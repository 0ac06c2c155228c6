/**
 * In-process wiring for tests: the HTTP handler over a given (or the real) GW2 client, raw MCP
 * request builders, and a real MCP SDK client whose `fetch` calls the handler directly, so no
 * port is opened.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type Config, parseConfig } from "../../src/config.ts";
import { AchievementCatalogue } from "../../src/achievements/catalogue.ts";
import { AchievementStore } from "../../src/achievements/store.ts";
import { currentDeadline } from "../../src/async/deadline.ts";
import { RecipeCatalogue } from "../../src/catalogue/recipe_catalogue.ts";
import { catalogueRecipeIndex, lazyPages } from "../../src/catalogue/recipe_lookup.ts";
import { RecipeStore } from "../../src/catalogue/recipe_store.ts";
import { CraftScanner } from "../../src/craft/scanner.ts";
import { createGw2Client, type InstrumentedGw2Client, TokenBucket } from "../../src/gw2/client.ts";
import type { Clock } from "../../src/async/clock.ts";
import type { Gw2Client } from "../../src/gw2/types.ts";
import { HistoryReader } from "../../src/history/query.ts";
import { HistoryStore } from "../../src/history/store.ts";
import { createHandler, type Handler } from "../../src/http/handler.ts";
import type { GuardPolicy } from "../../src/http/guard.ts";
import { createLogger, type Logger, silentLogger } from "../../src/log.ts";
import { MarketSheets } from "../../src/market/sheets.ts";
import { SheetStore } from "../../src/market/sheet_store.ts";
import { NameIndex } from "../../src/search/name_index.ts";
import type { ToolDefinition, ToolServices } from "../../src/tools/types.ts";
import { createFakeGw2, type FakeGw2, type MovingMarket } from "../fake_gw2/mod.ts";
import { createPublicAuth, type PublicAuth } from "../../src/auth/mod.ts";
import type { DocumentFetcher } from "../../src/auth/document_fetch.ts";
import type { Gw2meFetch } from "../../src/auth/gw2me_client.ts";
import { ManualClock } from "./clock.ts";

/** The bearer token of every test handler. */
export const TEST_TOKEN = "test-token-0123456789abcdef";

/** The 2026 revision and the 2025 revision the tests speak. */
export const MODERN = "2026-07-28";
/** The latest 2025-era revision. */
export const LEGACY = "2025-11-25";

/** A loopback-style guard policy: the dev defaults with {@linkcode TEST_TOKEN}. */
export const TEST_POLICY: GuardPolicy = {
  authToken: TEST_TOKEN,
  allowedOrigins: ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"],
  allowedHosts: ["localhost", "127.0.0.1", "[::1]"],
};

/** Options for {@linkcode createTestHandler}. */
export interface TestHandlerOptions {
  readonly gw2: Gw2Client;
  readonly names?: NameIndex;
  /** The tools' other services (the market sheet, …). */
  readonly services?: ToolServices;
  /** The clock of call deadlines; defaults to the system clock. */
  readonly clock?: Clock;
  readonly log?: Logger;
  readonly policy?: Partial<GuardPolicy>;
  readonly tools?: readonly ToolDefinition[];
  readonly maxBodyBytes?: number;
}

/** The production handler over test dependencies. Close it (or `await using`) when done. */
export function createTestHandler(options: TestHandlerOptions): Handler & AsyncDisposable {
  const handler = createHandler({
    gw2: options.gw2,
    ...(options.names === undefined ? {} : { names: options.names }),
    ...(options.services === undefined ? {} : { services: options.services }),
    log: options.log ?? silentLogger,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    config: { ...TEST_POLICY, ...options.policy },
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
  });
  return Object.assign(handler, { [Symbol.asyncDispose]: () => handler.close() });
}

/** Headers of an authenticated MCP POST. */
export function mcpHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    authorization: `Bearer ${TEST_TOKEN}`,
    ...extra,
  };
}

/** A raw JSON-RPC POST to `/mcp` (or `path`). */
export function mcpPost(
  body: unknown,
  options: { headers?: Record<string, string>; path?: string } = {},
): Request {
  return new Request(`http://localhost${options.path ?? "/mcp"}`, {
    method: "POST",
    headers: mcpHeaders(options.headers),
    body: JSON.stringify(body),
  });
}

/** The per-request envelope a 2026-07-28 request carries in `params._meta`. */
export function modernMeta(): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
}

/**
 * A raw 2026-07-28 request: envelope in the body (merged with any `params._meta` given, a
 * `progressToken` say) and the mandatory headers (`Mcp-Name` for `tools/call`). `headers`
 * overrides any of them, e.g. to provoke a mismatch.
 */
export function modernPost(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Request {
  const name = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  const given = typeof params._meta === "object" && params._meta !== null ? params._meta : {};
  return mcpPost(
    { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: { ...modernMeta(), ...given } } },
    {
      headers: {
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        ...name,
        ...headers,
      },
    },
  );
}

/**
 * Reads a JSON-RPC answer from a response, whether it came as JSON or as an SSE stream
 * (the 2025 leg answers SSE); returns the last message.
 */
export async function readRpc(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream")) return JSON.parse(text);
  const data = text.split("\n").filter((line) => line.startsWith("data:")).map((line) =>
    line.slice(5).trim()
  );
  const last = data.at(-1);
  if (last === undefined) throw new TypeError("Cannot read the SSE answer: it has no data line");
  return JSON.parse(last);
}

/** Which protocol era a test client speaks. */
export type Era = "2025" | "2026";

/** Options for {@linkcode connectClient}. */
export interface ConnectOptions {
  readonly era?: Era;
  /** Extra headers on every request (e.g. `X-GW2-Key`); the bearer is added unless overridden. */
  readonly headers?: Record<string, string>;
  readonly path?: string;
}

/**
 * A real MCP SDK client connected to `handler` in-process. `era: "2026"` pins 2026-07-28
 * (`server/discover`, per-request envelope and headers); the default speaks 2025-11-25
 * (`initialize`). Close it (or `await using`).
 */
export async function connectClient(
  handler: (request: Request) => Promise<Response>,
  options: ConnectOptions = {},
): Promise<Client & AsyncDisposable> {
  const client = new Client(
    { name: "priory-tests", version: "1.0.0" },
    options.era === "2026" ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(
    new URL(`http://localhost${options.path ?? "/mcp"}`),
    {
      // Under Deno 2.5 the SDK types `init` with @types/node's RequestInit; at run time it is
      // the web-standard one `Request` takes.
      fetch: (url, init) => handler(new Request(url, init as RequestInit | undefined)),
      requestInit: {
        headers: { authorization: `Bearer ${TEST_TOKEN}`, ...options.headers },
      },
    },
  );
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** The whole stack in-process: config → GW2 client (over the fake, in-memory KV) → handler. */
export interface TestApp extends AsyncDisposable {
  /** The production request handler. */
  readonly handler: Handler;
  /** The fake GW2 API the client talks to (its `control` injects faults, logs requests). */
  readonly fake: FakeGw2;
  /**
   * The real GW2 client, as the handler sees it: recipe lookups from the catalogue (unless the
   * config turns it off), as in `main.ts`.
   */
  readonly gw2: InstrumentedGw2Client;
  /** The name index, fed by the client's write-through as in `main.ts`. */
  readonly names: NameIndex;
  /** The price history's store (tests write snapshots into it) and the tools' reader of it. */
  readonly historyStore: HistoryStore;
  readonly history: HistoryReader;
  /** The market sheet, when `sheet` was asked for (price reads answered from it while fresh). */
  readonly sheets: MarketSheets | undefined;
  /** The recipe catalogue the lookups and the crafting scan use. */
  readonly recipes: RecipeCatalogue;
  /** The achievement catalogue (filled on demand through the client, no crawl here). */
  readonly achievements: AchievementCatalogue;
  /** The crafting scan, when `craft` was asked for. */
  readonly crafting: CraftScanner | undefined;
  /** The KV holding cache, budget, key secret and names (`:memory:` unless one was given). */
  readonly kv: Deno.Kv;
  readonly config: Config;
  /** Delays run instantly; request timeouts fire only when the test advances it. */
  readonly clock: ManualClock;
  /** Every log line written, as JSON text. */
  readonly logs: readonly string[];
  /** The public mode, when the environment asked for it (`PRIORY_AUTH=oauth`). */
  readonly auth?: PublicAuth;
}

/** Options for {@linkcode startTestApp}. */
export interface TestAppOptions {
  /** Extra environment for `parseConfig` (`MCP_AUTH_TOKEN` is {@linkcode TEST_TOKEN}). */
  readonly env?: Record<string, string>;
  /** Retries of a transient upstream failure; 0 keeps fault tests short. */
  readonly maxRetries?: number;
  /** The KV to use (e.g. a file shared with a second app); `:memory:` when absent. */
  readonly kv?: Deno.Kv;
  /**
   * The fake's latency waits on the test clock (as a timer) instead of real time, so a slow
   * upstream is driven like everything else (`settleOnClock`).
   */
  readonly latencyOnClock?: boolean;
  /**
   * The clock (e.g. another app's, for two instances on one KV: separate manual clocks drift
   * apart by the pauses each took, and a record stamped more than a second in a reader's future
   * is not fresh for it). A new one (delays advance at once) when absent.
   */
  readonly clock?: ManualClock;
  /** A Trading Post that moves with the clock, for the fake (`tests/fake_gw2/world/market.ts`). */
  readonly market?: MovingMarket;
  /**
   * Wires the market sheet as `main.ts` does (on-demand reads over the client, price reads from
   * it while fresh, handed to the tools). @default false
   */
  readonly sheet?: boolean;
  /** Wires the crafting scan too (and the sheet it needs), as `main.ts` does. @default false */
  readonly craft?: boolean;
  /** Public mode: how client metadata documents are fetched (the real, guarded one if absent). */
  readonly fetchDocument?: DocumentFetcher;
  /** Public mode with `PRIORY_GW2ME_*`: how gw2.me is reached (a `FakeGw2me`'s `fetch`). */
  readonly gw2meFetch?: Gw2meFetch;
}

/**
 * Wires the stack the way `main.ts` does, with test doubles only at the edges: the fake GW2 API
 * instead of the network, `:memory:` KV, a test clock and a captured log.
 *
 * @example
 * ```ts
 * await using app = await startTestApp();
 * await using client = await connectClient(app.handler);
 * ```
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env: Record<string, string> = {
    MCP_AUTH_TOKEN: TEST_TOKEN,
    PRIORY_HOSTNAME: "127.0.0.1",
    GW2_API_BASE: "http://gw2.test",
    ...options.env,
  };
  const config = parseConfig((name) => env[name], { mode: "start" });
  const logs: string[] = [];
  const clock = options.clock ?? new ManualClock({ advance: "delays" });
  const log = createLogger({
    level: "debug",
    write: (line) => logs.push(line),
    now: () => clock.now(),
  });
  const fake = createFakeGw2({
    now: () => clock.now(),
    ...(options.latencyOnClock ? { sleep: (ms, signal) => clock.timer(ms, signal) } : {}),
    ...(options.market === undefined ? {} : { market: options.market }),
  });
  const ownKv = options.kv === undefined;
  const kv = options.kv ?? await Deno.openKv(":memory:");
  const names = new NameIndex({ kv, namespace: config.gw2ApiBase, log, clock });
  const sheets = options.sheet === true || options.craft === true
    ? new MarketSheets({
      store: new SheetStore({ kv, namespace: config.gw2ApiBase }),
      clock,
      log,
      // Called only once the client below exists.
      pages: { pricesPage: (page, size, deadline) => gw2.pricesPage(page, size, deadline) },
    })
    : undefined;
  // Recipe lookups from the catalogue (filled on demand, no crawl here), as main.ts wires them.
  const recipes = new RecipeCatalogue({
    store: new RecipeStore({ kv, namespace: config.gw2ApiBase }),
    clock,
    log,
  });
  const gw2: InstrumentedGw2Client = createGw2Client({
    baseUrl: config.gw2ApiBase,
    kv,
    clock,
    log,
    rate: { burst: config.rateBurst, perSec: config.ratePerSec },
    fetch: (input, init) => fake.fetch(new Request(input, init)),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    onItemsFetched: (items, lang) => names.record(items, lang),
    ...(sheets === undefined ? {} : { priceSheet: (ids: readonly number[]) => sheets.prices(ids) }),
    ...(config.catalogue
      ? { recipeIndex: catalogueRecipeIndex(recipes, lazyPages(() => gw2)) }
      : {}),
  });
  const crafting = options.craft === true
    ? new CraftScanner({
      catalogue: config.catalogue ? recipes : undefined,
      pages: gw2,
      clock,
      log,
    })
    : undefined;
  const achievements = new AchievementCatalogue({
    store: new AchievementStore({ kv, namespace: config.gw2ApiBase }),
    clock,
    log,
    pages: (page, size, lang) => gw2.achievementsPage(page, size, currentDeadline(), lang),
  });
  const historyStore = new HistoryStore({ kv, namespace: config.gw2ApiBase, clock });
  const history = new HistoryReader({
    store: historyStore,
    clock,
    snapshotMinutes: config.snapshotMinutes,
  });
  const auth = config.publicMode === undefined ? undefined : await createPublicAuth({
    config: config.publicMode,
    staticToken: config.authToken,
    kv,
    gw2,
    budget: { burst: config.rateBurst, perSec: config.ratePerSec },
    bucket: (spec) => new TokenBucket({ kv, clock, log, ...spec }),
    clock,
    log,
    ...(options.fetchDocument === undefined ? {} : { fetchDocument: options.fetchDocument }),
    ...(options.gw2meFetch === undefined ? {} : { gw2meFetch: options.gw2meFetch }),
  });
  const handler = createHandler({
    log,
    gw2,
    names,
    services: {
      history,
      achievements,
      ...(sheets === undefined ? {} : { sheets }),
      ...(crafting === undefined ? {} : { crafting }),
    },
    config,
    clock,
    ...(auth === undefined ? {} : { auth }),
  });
  return {
    handler,
    fake,
    gw2,
    names,
    historyStore,
    history,
    sheets,
    recipes,
    achievements,
    crafting,
    kv,
    config,
    clock,
    logs,
    ...(auth === undefined ? {} : { auth }),
    [Symbol.asyncDispose]: async () => {
      await handler.close();
      if (ownKv) kv.close();
    },
  };
}

/** The text block of a tool result (its first content block), or "" when it has none. */
export function textOf(result: { content: unknown }): string {
  const [block] = Array.isArray(result.content) ? result.content : [];
  return typeof block === "object" && block !== null && "text" in block ? String(block.text) : "";
}
