/**
 * Architecture guard, with the platform's own tools instead of a parser.
 *
 * 1. The import graph (`deno info --json`, rooted at `main.ts` and at every module under `src/`):
 *    the GW2 layer's internals (`src/gw2/` but its public `types.ts`, `errors.ts`, `schemas.ts`)
 *    and `src/kv/` are imported only inside the layer, the client factory only by `main.ts`; the
 *    tools, the domain, the background jobs and the recipe catalogue cannot reach the transport,
 *    the client or KV even indirectly (the jobs get their client from `main.ts`, as the tools
 *    do); nothing imports a networking module or an npm HTTP client.
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

/** Every import edge (code or type) of the graph rooted at `root`, as [importer, imported]. */
async function importEdges(root: string): Promise<[string, string][]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const graph: {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; type?: { specifier: string } }[];
    }[];
  } = JSON.parse(new TextDecoder().decode(output.stdout));
  return graph.modules.flatMap((module) =>
    (module.dependencies ?? []).flatMap((dependency) =>
      [dependency.code, dependency.type].flatMap((target): [string, string][] =>
        target === undefined ? [] : [[local(module.specifier), local(target.specifier)]]
      )
    )
  );
}

const inLayer = (path: string) => path.startsWith("src/gw2/") || path.startsWith("src/kv/");
const PUBLIC_GW2 = new Set(["src/gw2/types.ts", "src/gw2/errors.ts", "src/gw2/schemas.ts"]);
const NETWORKING =
  /^node:(?:http|https|http2|net|tls|dgram)$|^npm:\/?(?:[^/]*fetch|axios|got|undici|ky)\b/;

/** Violations of the import rules among `edges`. */
function graphViolations(edges: readonly [string, string][]): string[] {
  const found = new Set<string>();
  for (const [from, to] of edges) {
    if (NETWORKING.test(to)) found.add(`${from} imports the networking module ${to}`);
    if (to === "src/gw2/client.ts" && from !== "main.ts" && !inLayer(from)) {
      found.add(`${from} imports the client factory (main.ts only)`);
    } else if (inLayer(to) && !PUBLIC_GW2.has(to) && !inLayer(from) && to !== "src/gw2/client.ts") {
      found.add(`${from} imports the layer's internal ${to}`);
    }
  }
  // Tools, domain logic and background work see the client only through its interface, even
  // indirectly.
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) next.set(from, [...(next.get(from) ?? []), to]);
  for (const start of next.keys()) {
    if (!/^src\/(?:tools|domain|background|catalogue)\//.test(start)) continue;
    const seen = new Set([start]);
    for (const path of seen) {
      for (const to of next.get(path) ?? []) seen.add(to);
    }
    for (const reached of seen) {
      if (reached === "src/gw2/transport.ts" || reached === "src/gw2/client.ts") {
        found.add(`${start} reaches ${reached}`);
      } else if (reached.startsWith("src/kv/")) found.add(`${start} reaches ${reached}`);
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
    name: "fetch is used only by the transport",
    strings: "blanked",
    // The global `fetch` (a call, an alias, a shorthand), not a property key, member or longer name.
    pattern: /(?<![\w$.#])fetch(?![\w$])(?!\s*\??:)|\b(?:globalThis|window|self)\s*\.\s*fetch\b/,
    allowed: only("src/gw2/transport.ts"),
  },
  {
    name: "Deno.serve, Deno.openKv, Deno.cron and Deno.env are touched only by main.ts",
    strings: "blanked",
    pattern: /\bDeno\s*\.\s*(?:serve|openKv|cron|env)\b/,
    allowed: only("main.ts"),
  },
  {
    name: "no sockets, and fetch is not reached by a computed name",
    strings: "kept",
    pattern:
      /\bDeno\s*\.\s*(?:connect|connectTls|startTls)\b|\b(?:XMLHttpRequest|WebSocket|EventSource)\b|\b(?:globalThis|window|self)\s*\[\s*["'`]fetch/,
    allowed: () => false,
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

Deno.test("architecture: the import graph keeps the GW2 layer's internals inside it", async () => {
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
  for (const [rule, expected] of [[0, ["src/gw2/transport.ts"]], [1, ["main.ts"]]] as const) {
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
  const edges: [string, [string, string]][] = [
    ["bypassing the cache", ["src/tools/x.ts", "src/kv/record_cache.ts"]],
    ["bypassing the client", ["src/mcp/x.ts", "src/gw2/transport.ts"]],
    ["the factory outside main", ["src/http/x.ts", "src/gw2/client.ts"]],
    ["a node HTTP client", ["src/gw2/x.ts", "node:https"]],
    ["an npm HTTP client", ["src/gw2/x.ts", "npm:/axios@1.0.0"]],
  ];
  for (const [name, edge] of edges) {
    await t.step(`flags ${name}`, () => assert.notDeepEqual(graphViolations([edge]), []));
  }
  await t.step("flags a tool reaching KV through a helper", () => {
    const chain: [string, string][] = [
      ["src/tools/x.ts", "src/helpers/y.ts"],
      ["src/helpers/y.ts", "src/kv/keys.ts"],
    ];
    assert.deepEqual(graphViolations(chain), [
      "src/helpers/y.ts imports the layer's internal src/kv/keys.ts",
      "src/tools/x.ts reaches src/kv/keys.ts",
    ]);
  });
  await t.step("flags a background job reaching the transport through a helper", () => {
    const chain: [string, string][] = [
      ["src/background/x.ts", "src/helpers/y.ts"],
      ["src/helpers/y.ts", "src/gw2/transport.ts"],
    ];
    assert.ok(graphViolations(chain).includes("src/background/x.ts reaches src/gw2/transport.ts"));
  });
  await t.step("passes the wiring and the public interface", () => {
    assert.deepEqual(
      graphViolations([
        ["main.ts", "src/gw2/client.ts"],
        ["src/tools/x.ts", "src/gw2/types.ts"],
        ["src/gw2/client.ts", "src/kv/record_cache.ts"],
      ]),
      [],
    );
    assert.deepEqual(textViolations("main.ts", "const kv = await Deno.openKv(path);"), []);
  });
});
