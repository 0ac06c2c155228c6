/**
 * The scenario interface of `deno task bench`. A scenario is a small module exporting one
 * {@linkcode Scenario}, listed in `bench/scenarios/mod.ts`. It receives a {@linkcode BenchContext}
 * (servers, a fake GW2 API, MCP clients, options) and returns figures and targets; the runner
 * prints them, writes them to the results file, and closes whatever the scenario started.
 *
 * ```ts
 * export const myScenario: Scenario = {
 *   name: "my-scenario",
 *   summary: "what it measures, in one line",
 *   tools: ["priory_recipe_tree"], // skipped ("tool absent") until the tool is registered
 *   async run(ctx) {
 *     const fake = await ctx.startFake({ latencyMs: ctx.options.latencyMs });
 *     const priory = await ctx.startPriory(fake);
 *     const client = ctx.client(priory);
 *     const ms = await timed(() => client.callTool("priory_recipe_tree", { itemId: 30703 }));
 *     return {
 *       figures: [{ label: "cold tree", value: ms, unit: "ms" }],
 *       targets: [{ label: "cold tree < 15 s", value: ms, unit: "ms", max: 15_000 }],
 *     };
 *   },
 * };
 * ```
 *
 * @module
 */

import type { FakeGw2 } from "../tests/fake_gw2/mod.ts";
import type { McpWire, Protocol } from "./support/wire.ts";

/** Run-wide settings, from the command line. */
export interface BenchOptions {
  /** Fewer samples and shorter windows: a smoke run of every scenario in well under a minute. */
  readonly quick: boolean;
  /** Upstream latency of the cold scenarios, in ms (the fake adds it to every answer). */
  readonly latencyMs: number;
  /** The revision spoken where a scenario speaks only one. */
  readonly protocol: Protocol;
  /** Sequential calls per side in latency scenarios. */
  readonly samples: number;
  /** Measuring time per side of a throughput scenario, in ms. */
  readonly durationMs: number;
  /** Concurrent clients of a throughput scenario. */
  readonly concurrency: number;
}

/** One measured figure. `floor` is the same figure on the floor server; the ratio is printed. */
export interface Figure {
  readonly label: string;
  readonly value: number;
  /** `ms`, `calls/s`, `requests`, `tokens`, `bytes`, `%`, `MB`, `count`, … */
  readonly unit: string;
  readonly floor?: number;
  /** A short remark printed after the figure (a comparison, a sample size). */
  readonly note?: string;
}

/** A target from the issue: `value` must lie within `[min, max]`. */
export interface Target {
  /** The target as stated, e.g. "warm call ≤ 1.5× floor median". */
  readonly label: string;
  readonly value: number;
  readonly unit: string;
  readonly max?: number;
  readonly min?: number;
  /** A stretch goal: reported, but missing it does not fail the run. */
  readonly stretch?: boolean;
}

/** What a scenario returns. */
export interface ScenarioReport {
  readonly figures: readonly Figure[];
  readonly targets: readonly Target[];
}

/** A fake GW2 API listening on 127.0.0.1, with the arrival time of every request. */
export interface BenchFake {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The fake itself: `control` (latency, faults, request log) and `world`. */
  readonly fake: FakeGw2;
  /** Every request received, in arrival order, `at` in `performance.now()` ms. */
  readonly arrivals: readonly { readonly at: number; readonly path: string }[];
  /**
   * Resolves once no request has arrived for `quietMs` (default 1 s) — the startup warm-up of
   * the Priory it serves is over — or after `maxMs` (default 60 s) regardless; with the number
   * of requests seen so far.
   */
  quiet(quietMs?: number, maxMs?: number): Promise<number>;
}

/** Options of {@linkcode BenchContext.startFake}. */
export interface FakeOptions {
  /** Added to every answer. @default 0 */
  readonly latencyMs?: number;
  /** The fake's own bucket (per client, like upstream's). @default 300 burst, 5 a second */
  readonly rate?: { readonly burst: number; readonly perSec: number };
}

/** Options of {@linkcode BenchContext.startPriory}. */
export interface PrioryOptions {
  /** A KV file to reuse (e.g. one a previous Priory warmed); a fresh one by default. */
  readonly kvPath?: string;
  /** `GW2_RATE_BURST` / `GW2_RATE_PER_SEC`. @default 300 / 5 */
  readonly rate?: { readonly burst: number; readonly perSec: number };
  /** V8 flags for the process (`DENO_V8_FLAGS`), e.g. to compare heap sizing. @default none */
  readonly v8Flags?: string;
  /**
   * Run without the start task's own `--v8-flags` (its old-space ceiling): V8's default heap
   * sizing, to compare with. @default false
   */
  readonly v8Defaults?: boolean;
  /**
   * Run the public mode (`PRIORY_AUTH=oauth`, its public URL the server's own loopback address),
   * the static bench token still accepted; optionally with each grant's call rate.
   */
  readonly publicMode?: {
    readonly callsBurst?: number;
    readonly callsPerMinute?: number;
    /** `PRIORY_CLIENT_ADDRESS_HEADER`: senders then say their address in that header. */
    readonly clientAddressHeader?: string;
  };
}

/** A server under measurement. */
export interface BenchServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly mcpUrl: string;
  /** `performance.now()` before the server was started, and when it was listening. */
  readonly spawnedAt: number;
  readonly listeningAt: number;
  /** Resident and peak resident memory, bytes; undefined where it cannot be read. */
  memory(): Promise<{ readonly rss: number; readonly peak: number } | undefined>;
  /** CPU time the server's process has used (all threads), ms; undefined where unknown. */
  cpuTime(): Promise<number | undefined>;
  /** Stops the server (the runner also closes everything after the scenario). */
  close(): Promise<void>;
  /**
   * The log lines of its background work so far (`background job`, `warm-up …`, `recipe
   * catalogue …`), JSON text; absent where the server's output is not read (a server in the bench
   * process).
   */
  readonly backgroundLog?: () => readonly string[];
}

/** What the runner hands a scenario. Everything started through it is closed afterwards. */
export interface BenchContext {
  readonly options: BenchOptions;
  /** Names of the tools Priory registers (`TOOLS` of `src/tools/mod.ts`). */
  readonly tools: ReadonlySet<string>;
  /** Starts a fake GW2 API on 127.0.0.1. */
  startFake(options?: FakeOptions): Promise<BenchFake>;
  /**
   * Starts Priory — the production entry, as `deno task start` runs it — over `upstream`, or
   * over no upstream (a closed port) for a scenario that never reaches GW2.
   */
  startPriory(upstream: BenchFake | undefined, options?: PrioryOptions): Promise<BenchServer>;
  /** The floor server: started on first use, shared by every scenario of the run. */
  floor(): Promise<BenchServer>;
  /** A fresh KV file path in the run's temporary directory. */
  kvPath(): string;
  /** An MCP client of `server` (bearer token, `options.protocol` unless given). */
  client(
    server: BenchServer,
    options?: { readonly protocol?: Protocol; readonly headers?: Record<string, string> },
  ): McpWire;
  /** A progress line on stderr. */
  note(message: string): void;
}

/** A benchmark scenario: a small module listed in `bench/scenarios/mod.ts`. */
export interface Scenario {
  /** Kebab-case, unique; selects the scenario on the command line (`--only warm-call`). */
  readonly name: string;
  /** One line: what is measured. */
  readonly summary: string;
  /** Tools it calls; when one is not registered, the scenario is "skipped (tool absent)". */
  readonly tools: readonly string[];
  /** Measures. Throwing marks the scenario failed; the run goes on. */
  run(ctx: BenchContext): Promise<ScenarioReport>;
}
