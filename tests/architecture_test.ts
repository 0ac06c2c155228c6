/**
 * Architecture guard: all GW2 traffic goes through the client in `src/gw2/`. Over every source
 * file (`src/**` and `main.ts`), with comments removed (and, for identifier rules, string
 * contents too), it checks that only `src/gw2/transport.ts` touches `fetch`; that no module opens
 * sockets or imports an HTTP client; that the upstream's address and `/v2/` paths appear only
 * where they belong; and that the client's internals and its KV cache are reached only through
 * the client. Each rule is also checked against snippets that must and must not trip it, so a
 * rule cannot silently pass by matching nothing.
 *
 * @module
 */

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

/** Source text in two views: without comments, and without comments or string contents. */
interface Views {
  readonly withStrings: string;
  readonly code: string;
}

const REGEX_AFTER = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
const REGEX_AFTER_WORDS = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "yield",
  "await",
]);

/** Removes comments (both views) and string, template and regex contents (`code` view). */
function strip(source: string): Views {
  const withStrings: string[] = [];
  const code: string[] = [];
  const stack: ({ kind: "template" } | { kind: "expr"; depth: number })[] = [];
  let last = "";
  let lastWord = "";
  const emit = (text: string, isString: boolean) => {
    withStrings.push(text);
    code.push(isString ? text.replace(/[^\n]/g, " ") : text);
  };
  let index = 0;
  while (index < source.length) {
    const char = source[index] ?? "";
    const next = source[index + 1] ?? "";
    const top = stack.at(-1);
    if (top?.kind === "template") {
      if (char === "\\") {
        emit(char + next, true);
        index += 2;
      } else if (char === "`") {
        emit(char, false);
        stack.pop();
        index++;
        last = "`";
      } else if (char === "$" && next === "{") {
        emit("${", false);
        stack.push({ kind: "expr", depth: 0 });
        index += 2;
        last = "{";
      } else {
        emit(char, true);
        index++;
      }
      continue;
    }
    if (char === "/" && next === "/") {
      const end = source.indexOf("\n", index);
      const stop = end === -1 ? source.length : end;
      const blank = source.slice(index, stop).replace(/[^\n]/g, " ");
      withStrings.push(blank);
      code.push(blank);
      index = stop;
      continue;
    }
    if (char === "/" && next === "*") {
      const end = source.indexOf("*/", index + 2);
      const stop = end === -1 ? source.length : end + 2;
      const blank = source.slice(index, stop).replace(/[^\n]/g, " ");
      withStrings.push(blank);
      code.push(blank);
      index = stop;
      continue;
    }
    if (char === "'" || char === '"') {
      let end = index + 1;
      while (end < source.length && source[end] !== char && source[end] !== "\n") {
        end += source[end] === "\\" ? 2 : 1;
      }
      emit(char, false);
      emit(source.slice(index + 1, end), true);
      emit(source[end] ?? "", false);
      index = end + 1;
      last = char;
      continue;
    }
    if (char === "`") {
      emit(char, false);
      stack.push({ kind: "template" });
      index++;
      continue;
    }
    if (char === "/" && (last === "" || REGEX_AFTER.has(last) || REGEX_AFTER_WORDS.has(lastWord))) {
      let end = index + 1;
      let inClass = false;
      while (end < source.length && source[end] !== "\n") {
        const current = source[end];
        if (current === "\\") end++;
        else if (current === "[") inClass = true;
        else if (current === "]") inClass = false;
        else if (current === "/" && !inClass) break;
        end++;
      }
      emit("/", false);
      emit(source.slice(index + 1, end), true);
      emit("/", false);
      index = end + 1;
      last = "/";
      lastWord = "";
      continue;
    }
    if (top?.kind === "expr") {
      if (char === "{") top.depth++;
      if (char === "}") {
        if (top.depth === 0) {
          emit(char, false);
          stack.pop();
          index++;
          continue;
        }
        top.depth--;
      }
    }
    emit(char, false);
    index++;
    if (/[\w$]/.test(char)) {
      lastWord = /[\w$]/.test(last) ? lastWord + char : char;
      last = char;
    } else if (!/\s/.test(char)) {
      last = char;
      lastWord = "";
    }
  }
  return { withStrings: withStrings.join(""), code: code.join("") };
}

/** A rule: a pattern over one view, and the files where a match is allowed. */
interface Rule {
  readonly name: string;
  readonly view: keyof Views;
  readonly pattern: RegExp;
  readonly allowed: (path: string) => boolean;
}

const only = (...paths: string[]) => (path: string) => paths.includes(path);
const inGw2Layer = (path: string) => path.startsWith("src/gw2/") || path.startsWith("src/kv/");

const RULES: readonly Rule[] = [
  {
    name: "fetch is used only by the transport",
    view: "code",
    // A reference to the global `fetch` (call, alias, shorthand), not a property key or member.
    pattern: /(?<![\w$.#])fetch(?![\w$])(?!\s*\??:)|\b(?:globalThis|window|self)\s*\.\s*fetch\b/,
    allowed: only("src/gw2/transport.ts"),
  },
  {
    name: "fetch is not reached by a computed name",
    view: "withStrings",
    pattern: /\b(?:globalThis|window|self)\s*\[\s*["'`]fetch/,
    allowed: () => false,
  },
  {
    name: "no sockets or other HTTP clients",
    view: "code",
    pattern:
      /\bDeno\s*\.\s*(?:connect|connectTls|startTls)\b|\b(?:XMLHttpRequest|WebSocket|EventSource)\b/,
    allowed: () => false,
  },
  {
    name: "no node networking or npm HTTP client imports",
    view: "withStrings",
    pattern:
      /\bfrom\s*["'](?:node:(?:http|https|http2|net|tls|dgram)|npm:[^"']*(?:fetch|axios|got|undici|ky)[^"']*)["']|\bimport\s*\(\s*["']node:(?:http|https|net|tls)/,
    allowed: () => false,
  },
  {
    name: "the upstream host is named only as the configuration default",
    view: "withStrings",
    pattern: /guildwars2\.com/i,
    allowed: only("src/config.ts"),
  },
  {
    name: "the upstream base URL reaches only the client's wiring",
    view: "code",
    pattern: /\bgw2ApiBase\b/,
    allowed: only("src/config.ts", "main.ts"),
  },
  {
    name: "upstream paths are built only in the client",
    view: "withStrings",
    pattern: /["'`}]\/v2\//,
    allowed: (path) => path.startsWith("src/gw2/"),
  },
  {
    name: "the client is constructed only in main.ts",
    view: "code",
    pattern: /\bcreateGw2Client\b|\bnew\s+(?:Transport|BulkReader|DocReader|TokenBucket)\b/,
    allowed: (path) => path === "main.ts" || inGw2Layer(path),
  },
  {
    name: "outside the layer, only the client's public modules are imported",
    view: "withStrings",
    pattern:
      /\bfrom\s*["'][^"']*\/(?:gw2\/(?!types\.ts|errors\.ts|schemas\.ts|client\.ts)[\w/]+|kv\/[\w/]+)\.ts["']/,
    allowed: inGw2Layer,
  },
  {
    name: "only main.ts imports the client factory",
    view: "withStrings",
    pattern: /\bfrom\s*["'][^"']*\/gw2\/client\.ts["']/,
    allowed: (path) => path === "main.ts" || inGw2Layer(path),
  },
];

function violations(path: string, source: string): string[] {
  const views = strip(source);
  return RULES.filter((rule) => !rule.allowed(path) && rule.pattern.test(views[rule.view]))
    .map((rule) => `${path}: ${rule.name}`);
}

async function sourceFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  async function walk(dir: string): Promise<void> {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory) await walk(`${path}/`);
      else if (entry.isFile && /\.(ts|tsx|js|mjs)$/.test(entry.name)) {
        files.set(path, await Deno.readTextFile(new URL(path, ROOT)));
      }
    }
  }
  await walk("src/");
  files.set("main.ts", await Deno.readTextFile(new URL("main.ts", ROOT)));
  return files;
}

Deno.test("architecture: nothing outside src/gw2/ talks to the GW2 API", async () => {
  const files = await sourceFiles();
  assert.ok(files.size >= 10, `scanned only ${files.size} files`);
  const found = [...files].flatMap(([path, source]) => violations(path, source));
  assert.deepEqual(found, []);
});

Deno.test("architecture: the transport is the one module that calls fetch", async () => {
  const files = await sourceFiles();
  const fetchRule = RULES[0];
  assert.ok(fetchRule);
  const users = [...files].filter(([, source]) => fetchRule.pattern.test(strip(source).code))
    .map(([path]) => path);
  // A positive control: if this finds nothing, the rule is matching nothing and proves nothing.
  assert.deepEqual(users, ["src/gw2/transport.ts"]);
});

Deno.test("architecture: the rules trip on offending code and not on look-alikes", async (t) => {
  const elsewhere = "src/tools/example.ts";
  const offending: [string, string][] = [
    ["direct call", "const r = await fetch(url);"],
    ["aliased", "const get = fetch;\nget(url);"],
    ["shorthand", "createThing({ fetch });"],
    ["global member", "await globalThis.fetch(url)"],
    ["computed", 'await globalThis["fetch"](url)'],
    ["socket", "await Deno.connect({ port: 443 })"],
    ["websocket", "new WebSocket(url)"],
    ["node http", 'import { request } from "node:https";'],
    ["upstream host", 'const base = "https://api.guildwars2.com";'],
    ["config base", "const base = config.gw2ApiBase;"],
    ["path literal", 'const path = "/v2/items";'],
    ["path in template", "const url = `${base}/v2/items?ids=${ids}`;"],
    ["second client", "const gw2 = createGw2Client(options);"],
    ["bypassing the cache", 'import { RecordCache } from "../kv/record_cache.ts";'],
    ["bypassing the client", 'import { Transport } from "../gw2/transport.ts";'],
    ["factory outside main", 'import { createGw2Client } from "../gw2/client.ts";'],
  ];
  for (const [name, snippet] of offending) {
    await t.step(`flags ${name}`, () => {
      assert.notDeepEqual(violations(elsewhere, snippet), [], snippet);
    });
  }
  const benign: [string, string][] = [
    [
      "a comment",
      "// we fetch items from api.guildwars2.com/v2/items via the client\nconst a = 1;",
    ],
    ["a block comment", "/* fetch(url) */ const b = 2;"],
    ["a sentence in a string", 'const message = "could not fetch the prices";'],
    ["a member call", "await deps.gw2.fetch(ids); await fake.fetch(request);"],
    ["a property key", "const options = { fetch: stub, other: 1 };"],
    ["a longer identifier", "await fetchItems(ids); const prefetch = 1;"],
    ["a regex with quotes", 'const re = /"fetch(/;\nconst ok = 1;'],
    ["public imports", 'import type { Gw2Client } from "../gw2/types.ts";'],
  ];
  for (const [name, snippet] of benign) {
    await t.step(`passes ${name}`, () => {
      assert.deepEqual(violations(elsewhere, snippet), [], snippet);
    });
  }
  await t.step("main.ts may wire the client", () => {
    const wiring = 'import { createGw2Client } from "./src/gw2/client.ts";\n' +
      "const gw2 = createGw2Client({ baseUrl: config.gw2ApiBase });";
    assert.deepEqual(violations("main.ts", wiring), []);
  });
});
