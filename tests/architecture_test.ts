/**
 * Architecture guard, with the platform's own tools instead of a parser.
 *
 * 1. The import graph (`deno info --json`, rooted at `main.ts` and at every module under `src/`):
 *    every module of `src/` sits in a room (`ROOMS`) or is shared by all (`SHARED`); each room
 *    imports only the rooms it is allowed (features never reach up into the tools, the MCP
 *    server, the HTTP edge or the process wiring); the GW2 client's internals (its cache, budget
 *    and transport: everything under `src/gw2/` but `types.ts`, `errors.ts`, `schemas.ts`) are
 *    imported only inside it, its factory only by `main.ts`, and reached by nothing else even
 *    indirectly; the pure computation of each room (`PURE`) runs no I/O code, even indirectly;
 *    nothing imports a networking module or an npm HTTP client.
 * 2. One search over the source text, comments removed (and quoted strings blanked for the
 *    identifier rules): `fetch` only in the transport, no sockets, `Deno.serve`, `Deno.openKv`,
 *    `Deno.cron` and `Deno.env` only in `main.ts`, the upstream host only as the configured
 *    default, its base URL only in the wiring, `/v2/` paths only in the layer.
 *
 * Each rule is also run against snippets that must and must not trip it, and the two text rules
 * that must match somewhere (the transport's `fetch`, `main.ts`'s `Deno.*`) are checked to.
 *
 * @module
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** `path` relative to the project root for a local module, else the specifier itself. */
function local(specifier: string): string {
  return specifier.startsWith(ROOT.href) ? specifier.slice(ROOT.href.length) : specifier;
}

/** How a module is imported: for its code, or only for its types (`import type`). */
type EdgeKind = "code" | "type";

/** An import edge: [importer, imported, kind]; the kind defaults to code. */
type Edge = readonly [string, string, EdgeKind?];

/** A module of `deno info --json`'s graph. */
interface GraphModule {
  readonly specifier: string;
  readonly dependencies?: readonly {
    readonly code?: { readonly specifier: string };
    readonly type?: { readonly specifier: string };
    readonly isDynamic?: boolean;
  }[];
}

/** The modules of the graph rooted at `root`, as `deno info --json` reports them. */
async function graphModules(root: string): Promise<readonly GraphModule[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const graph: { modules: GraphModule[] } = JSON.parse(new TextDecoder().decode(output.stdout));
  return graph.modules;
}

/** Every import edge (code or type) of the graph rooted at `root`. */
async function importEdges(root: string): Promise<Edge[]> {
  return (await graphModules(root)).flatMap((module) =>
    (module.dependencies ?? []).flatMap((dependency): Edge[] => {
      const from = local(module.specifier);
      if (dependency.code !== undefined) return [[from, local(dependency.code.specifier), "code"]];
      if (dependency.type !== undefined) return [[from, local(dependency.type.specifier), "type"]];
      return [];
    })
  );
}

/** The GW2 client's public surface: everything else under `src/gw2/` is its own business. */
const PUBLIC_GW2 = new Set([
  "src/gw2/types.ts",
  "src/gw2/errors.ts",
  "src/gw2/schemas.ts",
  "src/gw2/schemas_trading.ts",
  "src/gw2/paging.ts",
  "src/gw2/schemas_achievements.ts",
  "src/gw2/schemas_api.ts",
  "src/gw2/api_path.ts",
  "src/gw2/schemas_today.ts",
]);
/** Modules of `src/` every room may use: configuration, logging, counters, staleness. */
const SHARED = new Set(["src/config.ts", "src/log.ts", "src/metrics.ts", "src/staleness.ts"]);
const NETWORKING =
  /^node:(?:http|https|http2|net|tls|dgram)$|^npm:\/?(?:[^/]*fetch|axios|got|undici|ky)\b/;
/**
 * The one module besides the transport that opens connections: the public mode's fetch of a
 * client metadata document, on `Deno.connect` + `Deno.startTls` because its SSRF guard must pin
 * the address it connects to, which `fetch` cannot.
 */
const SOCKET_ALLOWED = "src/auth/document_fetch.ts";
/**
 * The other module that calls `fetch`: the public mode's gw2.me client, which reaches only the
 * operator's configured gw2.me origin (so it needs no address guard) and never the GW2 API.
 */
const GW2ME_CLIENT = "src/auth/gw2me_client.ts";

/**
 * The rooms of `src/` and the other rooms each may import (itself, `SHARED`, npm and `node:`
 * always; `gw2` means its public surface). A room missing here is a room nobody placed.
 */
const ROOMS: Readonly<Record<string, readonly string[]>> = {
  async: [],
  kv: ["async"],
  gw2: ["async", "kv"],
  data: [],
  market: ["async", "kv", "gw2"],
  passthrough: ["gw2"],
  account: ["async", "gw2", "market"],
  // The player's Trading Post: open orders against the books, the delivery box, earnings.
  trading: ["async", "gw2", "market"],
  tree: ["async", "gw2", "data", "market", "account"],
  ranking: ["async", "gw2", "data", "tree", "account"],
  search: ["async", "kv", "gw2"],
  catalogue: ["async", "kv", "gw2"],
  // The achievement catalogue and priory_achievements' work; names searched as items' are, the
  // missing items priced as every tool prices them (market's lowest sell listing).
  achievements: ["async", "kv", "gw2", "search", "account", "market"],
  history: ["async", "kv", "gw2", "market"],
  background: [
    "achievements",
    "async",
    "kv",
    "gw2",
    "data",
    "tree",
    "search",
    "catalogue",
    "market",
    "history",
  ],
  views: [],
  craft: ["async", "gw2", "data", "market", "tree", "catalogue", "account"],
  // What is done and left since the resets, and what the Wizard's Vault's Acclaim buys.
  today: ["async", "gw2", "market", "craft", "account", "tree"],
  tools: [
    "achievements",
    "async",
    "gw2",
    "data",
    "market",
    "craft",
    "passthrough",
    "account",
    "tree",
    "ranking",
    "search",
    "views",
    "history",
    "today",
    "trading",
  ],
  // The prompts are a surface beside the tools: they name the tools and their arguments' bounds
  // (and GW2's languages, from the client's public types).
  prompts: ["data", "gw2", "search", "tools"],
  mcp: [
    "achievements",
    "async",
    "gw2",
    "tools",
    "tree",
    "search",
    "views",
    "prompts",
    "history",
    "market",
    "craft",
  ],
  // The public mode: OAuth 2.1 server and resource check; its page wears the views' stylesheet.
  auth: ["async", "kv", "gw2", "views"],
  http: ["async", "gw2", "mcp", "tools", "search", "history", "auth"],
  process: ["async", "kv"],
};

/**
 * The pure computation of each room: no I/O, reached or direct. They may use one another, the
 * curated data, and the client's record types and errors — nothing that reads or writes.
 */
const PURE = new Set([
  "src/achievements/index.ts",
  "src/achievements/layout.ts",
  "src/achievements/shape.ts",
  "src/gw2/api_path.ts",
  "src/passthrough/api_shape.ts",
  "src/account/armory.ts",
  "src/account/find.ts",
  "src/account/materials.ts",
  "src/async/slices.ts",
  "src/auth/address.ts",
  "src/auth/call_rate.ts",
  "src/auth/client_metadata.ts",
  "src/auth/consent_page.ts",
  "src/auth/consent_text.ts",
  "src/auth/front_page.ts",
  "src/auth/metadata.ts",
  "src/auth/page_html.ts",
  "src/auth/page_text.ts",
  "src/auth/signout_page.ts",
  "src/auth/redirect.ts",
  "src/account/shape.ts",
  "src/account/tally.ts",
  "src/catalogue/recipe_layout.ts",
  "src/craft/depth.ts",
  "src/craft/fit.ts",
  "src/craft/graph.ts",
  "src/craft/pass.ts",
  "src/craft/rows.ts",
  "src/craft/shape.ts",
  "src/data/curated_recipes.ts",
  "src/data/legendaries.ts",
  "src/history/codec.ts",
  "src/history/rollup.ts",
  "src/history/series.ts",
  "src/history/shape.ts",
  "src/history/volumes.ts",
  "src/market/flip.ts",
  "src/market/order_book.ts",
  "src/market/sheet.ts",
  "src/market/trading_post.ts",
  "src/passthrough/shape.ts",
  "src/process/dev_console.ts",
  "src/ranking/rank.ts",
  "src/search/name_table.ts",
  "src/search/packed_names.ts",
  "src/search/normalize.ts",
  "src/search/result.ts",
  "src/staleness.ts",
  "src/tree/pricing.ts",
  "src/tree/shape.ts",
  "src/tree/shopping_list.ts",
  "src/today/daily_crafts.ts",
  "src/today/names.ts",
  "src/today/resets.ts",
  "src/today/shape.ts",
  "src/today/vault.ts",
  "src/trading/earnings.ts",
  "src/trading/orders.ts",
  "src/trading/shape.ts",
  "src/views/style.ts",
]);

/** The room of a local module (`main`, a shared module, or the folder under `src/`). */
function roomOf(path: string): string | undefined {
  if (path === "main.ts") return "main";
  if (SHARED.has(path)) return "shared";
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/** Violations of the import rules among `edges`. */
function graphViolations(edges: readonly Edge[]): string[] {
  const found = new Set<string>();
  for (const [from, to] of edges) {
    if (NETWORKING.test(to)) found.add(`${from} imports the networking module ${to}`);
    const source = roomOf(from);
    const target = roomOf(to);
    if (source === undefined || target === undefined || source === target) continue;
    if (to === "src/gw2/client.ts") {
      if (source !== "main") found.add(`${from} imports the client factory (main.ts only)`);
      continue;
    }
    if (target === "gw2" && !PUBLIC_GW2.has(to)) {
      found.add(`${from} imports the GW2 client's internal ${to}`);
      continue;
    }
    if (source === "main" || target === "shared") continue;
    if (source === "shared") {
      found.add(`${from} (shared by every room) imports the room module ${to}`);
      continue;
    }
    const allowed = ROOMS[source];
    if (allowed === undefined) found.add(`${from} is in no room of the house (ROOMS)`);
    else if (!allowed.includes(target)) found.add(`${from} (${source}) imports ${to} (${target})`);
  }
  // Pure computation runs no I/O code, even indirectly (types and JSON data it may share); nothing outside
  // the client reaches its transport, factory or cache, even indirectly.
  const next = new Map<string, string[]>();
  const nextCode = new Map<string, string[]>();
  for (const [from, to, kind = "code"] of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (kind === "code") nextCode.set(from, [...(nextCode.get(from) ?? []), to]);
  }
  const closure = (start: string, graph: Map<string, string[]>) => {
    const seen = new Set([start]);
    for (const path of seen) {
      for (const to of graph.get(path) ?? []) seen.add(to);
    }
    return seen;
  };
  for (const start of PURE) {
    for (const reached of closure(start, nextCode)) {
      const data = reached.endsWith(".json");
      if (
        roomOf(reached) !== undefined && !data && !PURE.has(reached) && !PUBLIC_GW2.has(reached)
      ) {
        found.add(`${start} (pure) reaches ${reached}`);
      }
    }
  }
  for (const start of next.keys()) {
    for (const reached of closure(start, next)) {
      if (
        roomOf(start) !== "gw2" && start !== "main.ts" &&
        /^src\/gw2\/(?:transport|client|token_bucket)\.ts$|^src\/gw2\/cache\//.test(reached)
      ) found.add(`${start} reaches ${reached}`);
    }
  }
  return [...found];
}

/** A text rule: a pattern, the view it reads, and the files where a match is allowed. */
interface TextRule {
  readonly name: string;
  readonly strings: "kept" | "blanked";
  readonly pattern: RegExp;
  readonly allowed: (path: string) => boolean;
}

const only = (...paths: string[]) => (path: string) => paths.includes(path);

const TEXT_RULES: readonly TextRule[] = [
  {
    name: "fetch is used only by the transport (and the gw2.me client, to the operator's gw2.me)",
    strings: "blanked",
    // The global `fetch` (a call, an alias, a shorthand), not a property key, member or longer name.
    pattern: /(?<![\w$.#])fetch(?![\w$])(?!\s*\??:)|\b(?:globalThis|window|self)\s*\.\s*fetch\b/,
    allowed: only("src/gw2/transport.ts", GW2ME_CLIENT),
  },
  {
    name: "Deno.serve, Deno.openKv, Deno.cron and Deno.env are touched only by main.ts",
    strings: "blanked",
    pattern: /\bDeno\s*\.\s*(?:serve|openKv|cron|env)\b/,
    allowed: only("main.ts"),
  },
  {
    name:
      "no sockets (but the client-metadata fetch's), and fetch is not reached by a computed name",
    strings: "kept",
    pattern:
      /\bDeno\s*\.\s*(?:connect|connectTls|startTls)\b|\b(?:XMLHttpRequest|WebSocket|EventSource)\b|\b(?:globalThis|window|self)\s*\[\s*["'`]fetch/,
    allowed: only(SOCKET_ALLOWED),
  },
  {
    name: "the upstream host is named only as the configuration default",
    strings: "kept",
    pattern: /guildwars2\.com/i,
    allowed: only("src/config.ts"),
  },
  {
    name: "the upstream base URL reaches only the client's wiring",
    strings: "blanked",
    pattern: /\bgw2ApiBase\b/,
    allowed: only("src/config.ts", "main.ts"),
  },
  {
    name: "upstream paths are built only in the client",
    strings: "kept",
    pattern: /["'`}]\/v2\//,
    allowed: (path) => path.startsWith("src/gw2/"),
  },
];

/** Comments, then quoted strings (template literals keep their text: code may hide in them). */
const LEXEMES =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|(["'])(?:\\.|(?!\1)[^\\\n])*\1|`(?:\\[\s\S]|[^\\`])*`/g;

function view(source: string, strings: TextRule["strings"]): string {
  return source.replace(LEXEMES, (lexeme, quote: string | undefined) => {
    if (lexeme.startsWith("`") || (quote !== undefined && strings === "kept")) return lexeme;
    return quote === undefined ? " " : `${quote}${quote}`;
  });
}

function textViolations(path: string, source: string): string[] {
  return TEXT_RULES.filter((rule) =>
    !rule.allowed(path) && rule.pattern.test(view(source, rule.strings))
  ).map((rule) => `${path}: ${rule.name}`);
}

async function sourceFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (/\.(ts|tsx|js|mjs)$/.test(entry.name)) {
        files.set(path, await Deno.readTextFile(new URL(path, ROOT)));
      }
    }
  }
  await walk("src/");
  files.set("main.ts", await Deno.readTextFile(new URL("main.ts", ROOT)));
  return files;
}

Deno.test("architecture: every module of src/ is in a room or shared, and the pure list is real", async () => {
  const files = await sourceFiles();
  const homeless = [...files.keys()].filter((path) => {
    const room = roomOf(path);
    return room === undefined || (room !== "main" && room !== "shared" && !(room in ROOMS));
  });
  assert.deepEqual(homeless, [], "src/ root holds only what every room shares (SHARED)");
  assert.deepEqual([...PURE].filter((path) => !files.has(path)), []);
});

Deno.test("architecture: the import graph keeps each room to its neighbours and the GW2 client's internals inside it", async () => {
  const files = await sourceFiles();
  const edges = await importEdges("main.ts");
  // Modules main.ts does not (yet) reach are checked from their own roots.
  const reached = new Set(edges.flat());
  for (const path of files.keys()) {
    if (path !== "main.ts" && !reached.has(path)) edges.push(...await importEdges(path));
  }
  assert.ok(edges.some(([from, to]) => from === "main.ts" && to === "src/gw2/client.ts"));
  assert.deepEqual(graphViolations(edges), []);
});

Deno.test("architecture: the source text keeps fetch, Deno's process APIs and upstream paths in place", async () => {
  const files = await sourceFiles();
  assert.ok(files.size >= 10, `scanned only ${files.size} files`);
  assert.deepEqual([...files].flatMap(([path, source]) => textViolations(path, source)), []);
  // Positive controls: a rule that matches nothing proves nothing.
  for (
    const [rule, expected] of [[0, [GW2ME_CLIENT, "src/gw2/transport.ts"]], [1, [
      "main.ts",
    ]]] as const
  ) {
    const { pattern, strings } = TEXT_RULES[rule] ?? assert.fail("no such rule");
    const users = [...files].filter(([, source]) => pattern.test(view(source, strings)));
    assert.deepEqual(users.map(([path]) => path), expected);
  }
});

Deno.test("architecture: the rules trip on offending code and not on look-alikes", async (t) => {
  const elsewhere = "src/tools/example.ts";
  const offending: [string, string][] = [
    ["direct call", "const r = await fetch(url);"],
    ["aliased", "const get = fetch;\nget(url);"],
    ["shorthand", "createThing({ fetch });"],
    ["global member", "await globalThis.fetch(url)"],
    ["computed", 'await globalThis["fetch"](url)'],
    ["inside a template", "const s = `${await fetch(url)}`;"],
    ["socket", "await Deno.connect({ port: 443 })"],
    ["websocket", "new WebSocket(url)"],
    ["environment", 'const port = Deno.env.get("PORT");'],
    ["kv", "const kv = await Deno.openKv();"],
    ["server", "Deno.serve(handler);"],
    ["cron", 'Deno.cron("warm", "0 * * * *", warm);'],
    ["upstream host", 'const base = "https://api.guildwars2.com";'],
    ["config base", "const base = config.gw2ApiBase;"],
    ["path literal", 'const path = "/v2/items";'],
    ["path in template", "const url = `${base}/v2/items?ids=${ids}`;"],
  ];
  for (const [name, snippet] of offending) {
    await t.step(
      `flags ${name}`,
      () => assert.notDeepEqual(textViolations(elsewhere, snippet), []),
    );
  }
  const benign: [string, string][] = [
    [
      "a comment",
      "// we fetch items from api.guildwars2.com/v2/items via the client\nconst a = 1;",
    ],
    ["a block comment", "/* fetch(url); Deno.env.get('X') */ const b = 2;"],
    ["a sentence in a string", 'const message = "could not fetch the prices";'],
    ["a URL in a string", 'const docs = "https://example.org//fetch"; const c = 3;'],
    ["a member call", "await deps.gw2.fetch(ids); await fake.fetch(request);"],
    ["a property key", "const options = { fetch: stub, other: 1 };"],
    ["a longer identifier", "await fetchItems(ids); const prefetch = 1;"],
  ];
  for (const [name, snippet] of benign) {
    await t.step(`passes ${name}`, () => assert.deepEqual(textViolations(elsewhere, snippet), []));
  }
  const edges: [string, Edge][] = [
    ["bypassing the cache", ["src/tools/x.ts", "src/gw2/cache/record_cache.ts"]],
    ["bypassing the budget", ["src/background/x.ts", "src/gw2/token_bucket.ts"]],
    ["a room reaching up", ["src/tree/x.ts", "src/tools/types.ts"]],
    ["a feature reaching the edge", ["src/ranking/x.ts", "src/http/handler.ts"]],
    ["the process wiring outside main", ["src/mcp/x.ts", "src/process/shutdown.ts"]],
    ["a shared module reaching into a room", ["src/log.ts", "src/tree/pricing.ts"]],
    ["a module in no room", ["src/misc/x.ts", "src/async/clock.ts"]],
    ["bypassing the client", ["src/mcp/x.ts", "src/gw2/transport.ts"]],
    ["the factory outside main", ["src/http/x.ts", "src/gw2/client.ts"]],
    ["a node HTTP client", ["src/gw2/x.ts", "node:https"]],
    ["an npm HTTP client", ["src/gw2/x.ts", "npm:/axios@1.0.0"]],
    ["node:https, even in the metadata fetch", ["src/auth/document_fetch.ts", "node:https"]],
  ];
  for (const [name, edge] of edges) {
    await t.step(`flags ${name}`, () => assert.notDeepEqual(graphViolations([edge]), []));
  }
  await t.step("flags a tool reaching the GW2 cache through a helper", () => {
    const chain: Edge[] = [
      ["src/tools/x.ts", "src/tree/y.ts"],
      ["src/tree/y.ts", "src/gw2/cache/keys.ts"],
    ];
    assert.deepEqual(graphViolations(chain), [
      "src/tree/y.ts imports the GW2 client's internal src/gw2/cache/keys.ts",
      "src/tools/x.ts reaches src/gw2/cache/keys.ts",
      "src/tree/y.ts reaches src/gw2/cache/keys.ts",
    ]);
  });
  await t.step("flags pure computation reaching I/O through an allowed import", () => {
    const chain: Edge[] = [
      ["src/tree/pricing.ts", "src/tree/resolve.ts"],
      ["src/tree/resolve.ts", "src/async/concurrency.ts"],
    ];
    assert.deepEqual(graphViolations(chain), [
      "src/tree/pricing.ts (pure) reaches src/tree/resolve.ts",
      "src/tree/pricing.ts (pure) reaches src/async/concurrency.ts",
    ]);
  });
  await t.step("flags a background job reaching the transport through a helper", () => {
    const chain: Edge[] = [
      ["src/background/x.ts", "src/catalogue/y.ts"],
      ["src/catalogue/y.ts", "src/gw2/transport.ts"],
    ];
    assert.ok(graphViolations(chain).includes("src/background/x.ts reaches src/gw2/transport.ts"));
  });
  await t.step("passes the wiring and the public interface", () => {
    assert.deepEqual(
      graphViolations([
        ["main.ts", "src/gw2/client.ts"],
        ["src/tools/x.ts", "src/gw2/types.ts"],
        ["src/gw2/client.ts", "src/gw2/cache/record_cache.ts"],
        ["src/gw2/cache/record_cache.ts", "src/kv/timeout.ts"],
        ["src/search/name_store.ts", "src/kv/limits.ts"],
        ["src/tree/pricing.ts", "src/market/trading_post.ts"],
        ["src/ranking/rank.ts", "src/staleness.ts"],
      ]),
      [],
    );
    assert.deepEqual(textViolations("main.ts", "const kv = await Deno.openKv(path);"), []);
  });
});

/** The modules main.ts reaches through static imports only (a dynamic `import()` not followed). */
async function staticClosure(root: string): Promise<Set<string>> {
  const modules = await graphModules(root);
  const edges = new Map(modules.map((module) => [
    local(module.specifier),
    (module.dependencies ?? []).flatMap((dependency) =>
      dependency.code === undefined || dependency.isDynamic === true
        ? []
        : [local(dependency.code.specifier)]
    ),
  ]));
  const reached = new Set<string>();
  const queue = [root];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (reached.has(next)) continue;
    reached.add(next);
    queue.push(...(edges.get(next) ?? []));
  }
  return reached;
}

Deno.test("architecture: the public mode, the views and the prompts are loaded only when used", async () => {
  // Their sources are live heap in every process that imports them (docs/performance.md,
  // "Memory"): main.ts imports the public mode only with PRIORY_AUTH=oauth, src/mcp/surfaces.ts
  // the views and prompts on the first request that asks for them.
  const reached = await staticClosure("main.ts");
  assert.ok(reached.has("src/mcp/endpoint.ts"), "the closure is the server's");
  const loadedEarly = [...reached].filter((path) =>
    /^src\/(auth|views|prompts)\//.test(path) &&
    !["src/auth/body_limit.ts", "src/auth/crypto.ts", "src/views/uris.ts"].includes(path)
  );
  assert.deepEqual(loadedEarly, []);
});

/**
 * Modules left with characters beyond Latin-1: the tables of words in five languages, Chinese
 * among them, read by people (and loaded only with the views or the public mode).
 */
const WIDE_TEXT = new Set([
  "src/views/labels.ts",
  "src/auth/consent_text.ts",
  "src/auth/page_text.ts",
]);

Deno.test("architecture: every other module's text is Latin-1, so V8 keeps its source at a byte a character", async () => {
  // A module's source (and the source map Deno inlines in it) is held in the heap for the
  // process's life: one character beyond U+00FF makes the whole string two bytes a character.
  // Comments spell such characters in ASCII ("-", "->", "<="), literals escape them (\u2014).
  const wide = [...await sourceFiles()].filter(([path, source]) =>
    !WIDE_TEXT.has(path) && [...source].some((character) => character.codePointAt(0)! > 0xff)
  ).map(([path]) => path);
  assert.deepEqual(wide, []);
});
