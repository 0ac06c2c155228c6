/**
 * Fuzzing the MCP surface with malformed input: generated tool arguments for every tool of the
 * registry (wrong types, huge arrays, deep nesting, long and odd Unicode, unknown fields), and
 * malformed HTTP/JSON-RPC bodies (bad JSON, wrong content types, garbage batches, oversized
 * bodies, broken envelopes). Every one must be refused cleanly — a status below 500, a short
 * answer without a stack, a path or the upstream address — without crashing the handler,
 * without a single read of the GW2 client (so no upstream request), and with memory flat.
 *
 * Seeded: a failure names its seed and case, and re-running with that seed replays it:
 * `PRIORY_FUZZ_SEED=<seed> deno test --allow-env=PRIORY_FUZZ_SEED --allow-read --allow-net=127.0.0.1 tests/reliability/fuzz_test.ts`
 * (without the permission, the fixed default seed is used).
 */
import assert from "node:assert/strict";
import { TOOLS } from "../../src/tools/mod.ts";
import {
  type Era,
  mcpHeaders,
  mcpPost,
  MODERN,
  modernMeta,
  modernPost,
  startTestApp,
  type TestApp,
} from "../support/app.ts";
import { collectGarbage } from "../support/heap.ts";
import { type Random, seeded } from "../support/random.ts";

const DEFAULT_SEED = 20_261_129;
/** At least this many generated tool-argument cases, spread over every registered tool. */
const ARGUMENT_CASES = 1_000;
const BODY_CASES = 300;
/** A refusal may quote what it refuses, briefly; it never echoes a large input. */
const MAX_MESSAGE_CHARS = 4_096;

function fuzzSeed(): number {
  const permission = Deno.permissions.querySync({ name: "env", variable: "PRIORY_FUZZ_SEED" });
  const value = permission.state === "granted" ? Deno.env.get("PRIORY_FUZZ_SEED") : undefined;
  return value === undefined ? DEFAULT_SEED : Number(value);
}

/** A JSON Schema as `tools/list` publishes it (only what the generator reads). */
interface JsonSchema {
  readonly type?: string;
  readonly properties?: Record<string, JsonSchema>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly enum?: readonly unknown[];
}

const ODD_PIECES = [
  "\u0000",
  "\u202e",
  "\u200b",
  "\ufeff",
  "\ud800",
  "\udfff",
  "a\u0301",
  "🦄",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "１２３",
  "١٢٣",
  "Ω≈ç√",
  "\\",
  '"',
  "%00",
  "${x}",
  "<script>",
  "__proto__",
  "constructor",
  "\n\r\t",
  "19721",
  "[&AgHJTQAA]",
];

/** A string of odd pieces and random code points; now and then very long. */
function oddString(random: Random, minLength = 0): string {
  const length = Math.max(
    minLength,
    random.chance(0.1) ? random.int(1_000, 20_000) : random.int(0, 40),
  );
  let text = "";
  while (text.length < length) {
    text += random.chance(0.5)
      ? random.pick(ODD_PIECES)
      : String.fromCodePoint(random.int(0, 0x10ffff));
  }
  return text;
}

/** Arrays and objects nested `depth` deep around a scalar. */
function deepNest(random: Random, depth: number): unknown {
  let value: unknown = random.pick([1, "x", null, true]);
  for (let level = 0; level < depth; level++) value = random.chance(0.5) ? [value] : { k: value };
  return value;
}

/** Any JSON value of a type other than `type`. */
function wrongType(random: Random, type: string | undefined): unknown {
  const candidates: [string, () => unknown][] = [
    ["string", () => oddString(random)],
    ["number", () => random.pick([1.5, -1, 0, 1e300, -0])],
    ["integer", () => random.int(-5, 5)],
    ["boolean", () => random.chance(0.5)],
    ["null", () => null],
    ["array", () => Array.from({ length: random.int(0, 5) }, () => oddString(random))],
    ["object", () => ({ [oddString(random)]: oddString(random) })],
    ["deep", () => deepNest(random, random.int(50, 2_000))],
  ];
  const compatible = (kind: string) =>
    kind === type || (type === "number" && kind === "integer") ||
    (kind === "deep" && (type === "array" || type === "object"));
  const [, make] = random.pick(candidates.filter(([kind]) => !compatible(kind)));
  return make();
}

/** A value `schema` refuses, or `undefined` when the generator cannot be sure of one. */
function invalidFor(random: Random, schema: JsonSchema): unknown {
  if (schema.type === undefined) return undefined;
  const options: (() => unknown)[] = [() => wrongType(random, schema.type)];
  if (schema.type === "integer") {
    options.push(() => random.int(1, 1_000_000) + 0.5);
    if (schema.exclusiveMinimum !== undefined) options.push(() => schema.exclusiveMinimum);
    if (schema.minimum !== undefined) options.push(() => (schema.minimum ?? 0) - 1);
    if (schema.maximum !== undefined) options.push(() => (schema.maximum ?? 0) + 1);
  }
  if (schema.type === "string") {
    if (schema.maxLength !== undefined) {
      // zod and JSON Schema count code points, and a tool may trim: the x's alone are too many.
      const over = schema.maxLength;
      options.push(() => `${oddString(random)}${"x".repeat(over + 1)}`);
    }
    if (schema.enum !== undefined) options.push(() => `${oddString(random)}\u0000`);
  }
  if (schema.type === "array") {
    if (schema.maxItems !== undefined) {
      const over = schema.maxItems;
      options.push(() =>
        Array.from({ length: random.int(over + 1, over + 5_000) }, () => random.int(1, 99_999))
      );
    }
    if ((schema.minItems ?? 0) > 0) options.push(() => []);
    const items = schema.items;
    if (items !== undefined && items.type !== undefined) {
      options.push(() => [invalidFor(random, items)]);
    }
  }
  return random.pick(options)();
}

/** Malformed arguments for a tool whose published input schema is `schema`. */
function malformedArguments(random: Random, schema: JsonSchema): [string, unknown] {
  const properties = Object.entries(schema.properties ?? {});
  const typed = properties.filter(([, property]) => property.type !== undefined);
  const kinds = ["not an object", "unknown field"];
  if (typed.length > 0) kinds.push("invalid field", "invalid field", "invalid field");
  if ((schema.required ?? []).length > 0) kinds.push("nothing");
  const kind = random.pick(kinds);
  switch (kind) {
    case "not an object":
      return [kind, wrongType(random, "object")];
    case "nothing":
      return [kind, {}];
    case "unknown field": {
      // A key of exactly "__proto__" never reaches a tool: zod's record parse in the SDK's
      // envelope drops it (no prototype is touched), so a tool without required arguments
      // would rightly answer. Any other key is refused.
      const odd = oddString(random);
      const key = `${odd}${random.chance(0.5) && odd !== "__proto__" ? "" : "_extra"}`;
      const known = Object.fromEntries(
        typed.filter(() => random.chance(0.3)).map((
          [name, prop],
        ) => [name, invalidFor(random, prop)]),
      );
      // An unknown key alone is refused by a strict schema (asserted below for every tool).
      return [kind, { ...known, [key.length === 0 ? "_" : key]: wrongType(random, undefined) }];
    }
    default: {
      const [name, property] = random.pick(typed);
      return [kind, { [name]: invalidFor(random, property) }];
    }
  }
}

function rpcCall(era: Era, id: number, name: string, args: unknown): Request {
  return era === "2026"
    ? modernPost("tools/call", { name, arguments: args })
    : mcpPost({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

/** The JSON-RPC message of an answer (JSON or the last SSE event), or undefined. */
function rpcMessage(text: string, contentType: string): Record<string, unknown> | undefined {
  const data = contentType.includes("text/event-stream")
    ? text.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5)).at(
      -1,
    )
    : text;
  if (data === undefined || !contentType.match(/json|event-stream/)) return undefined;
  const parsed: unknown = JSON.parse(data);
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? Object.fromEntries(Object.entries(parsed))
    : undefined;
}

/**
 * A clean refusal: under 500, nothing internal, and — for refusals of this project's writing
 * (`short`) — brief; the JSON-RPC message when there is one. (The SDK's own envelope errors
 * quote the offending header or `_meta` value whole: the client's own input, echoed to it.)
 */
async function assertRefused(
  response: Response,
  short = true,
): Promise<Record<string, unknown> | undefined> {
  const text = await response.text();
  assert.ok(response.status < 500, `status ${response.status}: ${text.slice(0, 300)}`);
  // A 2025 batch is answered message by message (one SSE event each).
  const messages = Math.max(1, text.match(/^data:/gm)?.length ?? 0);
  if (short) {
    assert.ok(text.length <= MAX_MESSAGE_CHARS * messages, `a ${text.length}-character answer`);
  }
  assert.doesNotMatch(text, /\bat \S+:\d+:\d+|file:\/\/|\.ts:\d|gw2\.test|\/v2\//);
  return rpcMessage(text, response.headers.get("content-type") ?? "");
}

/** Nothing reached the GW2 client, and nothing crashed. */
function assertUntouched(app: TestApp): void {
  const stats = app.gw2.stats();
  assert.equal(stats.cacheHits + stats.cacheMisses + stats.upstreamRequests, 0, "a GW2 read ran");
  assert.deepEqual(app.fake.control.requests, []);
  assert.deepEqual(app.logs.filter((line) => /crashed|"level":"error"/.test(line)), []);
}

/** Runs `cases` in order; a failure names the seed and the case to replay it. */
async function runCases(
  seed: number,
  cases: readonly (readonly [string, () => Promise<void>])[],
): Promise<void> {
  for (const [index, [label, run]] of cases.entries()) {
    try {
      await run();
    } catch (error) {
      throw new Error(`fuzz seed ${seed}, case ${index} (${label}): ${String(error)}`, {
        cause: error,
      });
    }
  }
}

async function publishedTools(app: TestApp): Promise<{ name: string; inputSchema: JsonSchema }[]> {
  const response = await app.handler(modernPost("tools/list"));
  const message = rpcMessage(await response.text(), response.headers.get("content-type") ?? "");
  const result = message?.result as { tools: { name: string; inputSchema: JsonSchema }[] };
  return result.tools;
}

Deno.test("fuzz: malformed arguments to every tool are refused before any GW2 read", async () => {
  const seed = fuzzSeed();
  const random = seeded(seed, "arguments");
  await using app = await startTestApp();
  const tools = await publishedTools(app);
  assert.deepEqual(tools.map((tool) => tool.name), TOOLS.map((tool) => tool.name), "every tool");
  for (const tool of tools) {
    assert.equal(
      tool.inputSchema.additionalProperties,
      false,
      `${tool.name} accepts unknown fields`,
    );
  }
  const cases = Array.from({ length: ARGUMENT_CASES }, (_, index) => {
    const tool = tools[index % tools.length] ?? assert.fail("no tool");
    const [kind, args] = malformedArguments(random, tool.inputSchema);
    const era: Era = random.chance(0.5) ? "2026" : "2025";
    const label = `${tool.name} ${era} ${kind}: ${JSON.stringify(args)?.slice(0, 120)}`;
    return [label, async () => {
      const message = await assertRefused(await app.handler(rpcCall(era, index, tool.name, args)));
      assert.ok(message !== undefined, "a JSON-RPC answer");
      const result = message.result as { isError?: boolean; content?: { text?: string }[] };
      if (message.error === undefined) {
        assert.equal(result?.isError, true, JSON.stringify(message).slice(0, 300));
        assert.match(
          result.content?.[0]?.text ?? "",
          new RegExp(`^Input validation error: Invalid arguments for tool ${tool.name}: `),
        );
      }
    }] as const;
  });
  await runCases(seed, cases.slice(0, ARGUMENT_CASES / 4));
  const collected = collectGarbage();
  const heapAfterQuarter = Deno.memoryUsage().heapUsed;
  await runCases(seed, cases.slice(ARGUMENT_CASES / 4));
  collectGarbage();
  const growth = Deno.memoryUsage().heapUsed - heapAfterQuarter;
  // Three times as many requests again: anything kept per request would show. Without a forced
  // collection (Deno 2.5) the figure includes garbage, so only a gross leak is caught there.
  const bound = collected ? 2 * 2 ** 20 : 64 * 2 ** 20;
  assert.ok(growth < bound, `heap grew ${growth} bytes over ${ARGUMENT_CASES * 0.75} requests`);
  assertUntouched(app);
  // Still healthy.
  const healthy = await app.handler(rpcCall("2026", 0, "gw2_items", { ids: [19721] }));
  assert.equal(healthy.status, 200);
  assert.match(await healthy.text(), /Glob of Ectoplasm/);
});

/** A body of more than 1 MiB, streamed without a Content-Length. */
function streamedBody(bytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      const size = Math.min(64 * 1024, bytes - sent);
      if (size <= 0) return controller.close();
      controller.enqueue(new Uint8Array(size).fill(0x20));
      sent += size;
    },
  });
}

function malformedBody(random: Random, index: number): [string, () => Request] {
  // Well-formed but for its arguments, which no tool accepts: whatever envelope check a
  // mutation slips past, the call stops at argument validation, before any GW2 read.
  const valid = {
    jsonrpc: "2.0",
    id: index,
    method: "tools/call",
    params: { name: "gw2_items", arguments: { ids: "19721" } },
  };
  const raw = (body: BodyInit | null, headers: Record<string, string> = {}) =>
    new Request("http://localhost/mcp", { method: "POST", headers: mcpHeaders(headers), body });
  const kinds: [string, () => Request][] = [
    ["bad JSON", () => raw(JSON.stringify(valid).slice(0, random.int(0, 60)))],
    ["garbage text", () => raw(oddString(random))],
    [
      "invalid UTF-8",
      () => raw(Uint8Array.from({ length: random.int(1, 400) }, () => random.int(128, 255))),
    ],
    ["a JSON scalar", () => raw(JSON.stringify(wrongType(random, "object")))],
    ["deep JSON", () => raw(JSON.stringify(deepNest(random, random.int(100, 3_000))))],
    [
      "wrong content type",
      () =>
        raw(JSON.stringify(valid), {
          "content-type": random.pick([
            "text/plain",
            "application/xml",
            "multipart/form-data",
            "",
            "application/json-patch",
          ]),
        }),
    ],
    [
      "no accept",
      () => raw(JSON.stringify(valid), { accept: random.pick(["", "text/html", "*/x"]) }),
    ],
    ["empty batch", () => raw("[]")],
    [
      "garbage batch",
      () =>
        raw(
          JSON.stringify(
            Array.from({ length: random.int(1, 300) }, () => wrongType(random, undefined)),
          ),
        ),
    ],
    [
      "batch of calls",
      () =>
        raw(
          JSON.stringify(Array.from({ length: random.int(2, 50) }, (_, id) => ({ ...valid, id }))),
        ),
    ],
    [
      "broken envelope",
      () => {
        const field = random.pick(["jsonrpc", "id", "method", "params"]);
        return raw(JSON.stringify({ ...valid, [field]: wrongType(random, undefined) }));
      },
    ],
    [
      "odd method",
      () => raw(JSON.stringify({ ...valid, method: oddString(random) })),
    ],
    [
      "odd tool name",
      () => raw(JSON.stringify({ ...valid, params: { name: oddString(random), arguments: {} } })),
    ],
    [
      "mismatched 2026 headers",
      () =>
        modernPost("tools/call", { name: "gw2_items", arguments: { ids: [] } }, {
          [random.pick(["mcp-protocol-version", "mcp-method", "mcp-name"])]: random.pick([
            "2099-01-01",
            "tools/list",
            "gw2_prices",
            "",
            "x".repeat(200),
          ]),
        }),
    ],
    [
      "2026 envelope without its meta",
      () =>
        raw(
          JSON.stringify({
            ...valid,
            params: {
              ...valid.params,
              _meta: {
                ...modernMeta(),
                "io.modelcontextprotocol/protocolVersion": oddString(random),
              },
            },
          }),
          { "mcp-protocol-version": MODERN },
        ),
    ],
    [
      "oversized, declared",
      () => raw(new Uint8Array(1024 * 1024 + random.int(1, 1000)).fill(0x20)),
    ],
    ["oversized, streamed", () => raw(streamedBody(1024 * 1024 + random.int(1, 100_000)))],
  ];
  return random.pick(kinds);
}

Deno.test("fuzz: malformed HTTP and JSON-RPC bodies are refused cleanly, without crashing", async () => {
  const seed = fuzzSeed();
  const random = seeded(seed, "bodies");
  await using app = await startTestApp();
  const statuses = new Map<number, number>();
  const cases = Array.from({ length: BODY_CASES }, (_, index) => {
    const [label, request] = malformedBody(random, index);
    return [label, async () => {
      const response = await app.handler(request());
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (label.startsWith("oversized")) assert.equal(response.status, 413);
      const message = await assertRefused(response, false);
      if (message?.result !== undefined) {
        // A call that got through the envelope checks is refused by argument validation.
        assert.equal((message.result as { isError?: boolean }).isError, true);
      }
    }] as const;
  });
  await runCases(seed, cases);
  assertUntouched(app);
  assert.ok(statuses.size >= 4, `a varied mix of refusals: ${JSON.stringify([...statuses])}`);
  const healthy = await app.handler(rpcCall("2025", 1, "gw2_items", { ids: [19721] }));
  assert.equal(healthy.status, 200);
  assert.match(await healthy.text(), /Glob of Ectoplasm/);
});
