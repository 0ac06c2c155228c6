/**
 * Runs scenarios: builds each one's {@linkcode BenchContext}, skips a scenario whose tools are
 * not registered, turns a thrown error into a failed outcome (the run goes on), checks targets,
 * and closes everything a scenario started. The floor is started once and shared.
 *
 * @module
 */

import type {
  BenchContext,
  BenchOptions,
  BenchServer,
  Figure,
  Scenario,
  Target,
} from "./scenario.ts";
import { serveFake } from "./support/fake.ts";
import {
  BENCH_TOKEN,
  spawnFloor,
  spawnPriory,
  type SpawnPrioryOptions,
} from "./support/processes.ts";
import { McpWire } from "./support/wire.ts";

/** Upstream of a Priory started without a fake: the discard port, where nothing listens. */
const NO_UPSTREAM = "http://127.0.0.1:9";

/** A target with its verdict. */
export interface CheckedTarget extends Target {
  readonly pass: boolean;
}

/** How one scenario went. */
export interface ScenarioOutcome {
  readonly name: string;
  readonly summary: string;
  readonly status: "ok" | "skipped" | "failed";
  /** Why it was skipped or failed. */
  readonly reason?: string;
  readonly seconds: number;
  readonly figures: readonly Figure[];
  readonly targets: readonly CheckedTarget[];
}

/** How the runner starts servers and what it knows of the server under test. */
export interface RunSettings {
  readonly options: BenchOptions;
  /** Tools Priory registers. */
  readonly tools: ReadonlySet<string>;
  /**
   * How servers start; by default each in a process of its own (Priory as `deno task start`
   * runs it). The runner's test passes servers inside its own process.
   */
  readonly servers?: {
    readonly priory: (options: SpawnPrioryOptions) => Promise<BenchServer>;
    readonly floor: (cpuProfileDir?: string) => Promise<BenchServer>;
  };
  /** Write a V8 CPU profile of every spawned Priory here. */
  readonly profileDir?: string;
  /** Progress lines; silent by default. */
  readonly note?: (message: string) => void;
}

/** The defaults of a full run, or of a quick one. */
export function defaultOptions(quick: boolean): BenchOptions {
  return {
    quick,
    latencyMs: 100,
    protocol: "2025-11-25",
    samples: quick ? 60 : 300,
    durationMs: quick ? 1_000 : 5_000,
    concurrency: 20,
  };
}

/** Whether `value` meets the target's bounds. */
export function meets(target: Target): boolean {
  return Number.isFinite(target.value) &&
    (target.max === undefined || target.value <= target.max) &&
    (target.min === undefined || target.value >= target.min);
}

/** Runs `scenarios` in order; never throws for a scenario's failure. */
export async function runScenarios(
  scenarios: readonly Scenario[],
  settings: RunSettings,
): Promise<ScenarioOutcome[]> {
  const note = settings.note ?? (() => {});
  const servers = settings.servers ?? { priory: spawnPriory, floor: spawnFloor };
  // Inside the project: `deno task start` may read and write only there (`.priory/` is ignored).
  const scratch = new URL("../.priory/", import.meta.url);
  await Deno.mkdir(scratch, { recursive: true });
  const tempDir = await Deno.makeTempDir({ dir: scratch.pathname, prefix: "bench-" });
  let kvCount = 0;
  const freshKvPath = () => `${tempDir}/kv-${++kvCount}.sqlite3`;
  let floor: Promise<BenchServer> | undefined;
  const outcomes: ScenarioOutcome[] = [];
  try {
    for (const scenario of scenarios) {
      const started = performance.now();
      const absent = scenario.tools.filter((tool) => !settings.tools.has(tool));
      if (absent.length > 0) {
        outcomes.push(outcome(scenario, "skipped", started, {
          reason: `tool absent: ${absent.join(", ")}`,
        }));
        continue;
      }
      note(`${scenario.name}: ${scenario.summary}`);
      const opened: { close(): Promise<void> }[] = [];
      const ctx: BenchContext = {
        options: settings.options,
        tools: settings.tools,
        startFake: (options) => {
          const fake = serveFake(options);
          opened.push(fake);
          return Promise.resolve(fake);
        },
        startPriory: async (upstream, options = {}) => {
          const start = {
            gw2ApiBase: upstream?.url ?? NO_UPSTREAM,
            kvPath: options.kvPath ?? freshKvPath(),
            ...(options.rate === undefined ? {} : { rate: options.rate }),
            ...(options.v8Flags === undefined ? {} : { v8Flags: options.v8Flags }),
            ...(options.v8Defaults === true ? { v8Defaults: true } : {}),
            ...(options.publicMode === undefined ? {} : { publicMode: options.publicMode }),
            ...(settings.profileDir === undefined ? {} : { cpuProfileDir: settings.profileDir }),
          };
          const server = await servers.priory(start);
          // Closed first: a Priory may still be talking to its fake.
          opened.unshift(server);
          return server;
        },
        floor: () => floor ??= servers.floor(settings.profileDir),
        kvPath: freshKvPath,
        client: (server, options = {}) =>
          new McpWire({
            url: server.mcpUrl,
            protocol: options.protocol ?? settings.options.protocol,
            token: BENCH_TOKEN,
            ...(options.headers === undefined ? {} : { headers: options.headers }),
          }),
        note: (message) => note(`  ${message}`),
      };
      try {
        const report = await scenario.run(ctx);
        outcomes.push(outcome(scenario, "ok", started, report));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        outcomes.push(outcome(scenario, "failed", started, { reason }));
      } finally {
        for (const resource of opened) await resource.close();
      }
    }
  } finally {
    if (floor !== undefined) await (await floor).close();
    await Deno.remove(tempDir, { recursive: true });
  }
  return outcomes;
}

function outcome(
  scenario: Scenario,
  status: ScenarioOutcome["status"],
  started: number,
  detail: { reason?: string; figures?: readonly Figure[]; targets?: readonly Target[] },
): ScenarioOutcome {
  return {
    name: scenario.name,
    summary: scenario.summary,
    status,
    ...(detail.reason === undefined ? {} : { reason: detail.reason }),
    seconds: (performance.now() - started) / 1000,
    figures: detail.figures ?? [],
    targets: (detail.targets ?? []).map((target) => ({ ...target, pass: meets(target) })),
  };
}
