/**
 * `deno task bench`: measures Priory against the floor (a bare server of the same MCP SDK) and
 * the targets, prints the figures and the targets, and writes the results as JSON under
 * `bench/results/` (ignored by git). Exits 1 when a scenario fails or a target (not a stretch
 * target) is missed. Method and figures: docs/performance.md.
 *
 * ```sh
 * deno task bench                          # every scenario, a few minutes
 * deno task bench --quick                  # fewer samples, shorter windows
 * deno task bench --only warm-call,economy # selected scenarios (--skip excludes)
 * deno task bench --latency 250            # upstream latency of the cold scenarios, ms
 * deno task bench --list                   # the scenarios and whether their tools exist
 * ```
 *
 * @module
 */

import { parseArgs } from "node:util";
import denoConfig from "../deno.json" with { type: "json" };
import { TOOLS } from "../src/tools/mod.ts";
import { figuresTable, passed, type Results, type RunEnvironment, targetsTable } from "./report.ts";
import { defaultOptions, runScenarios } from "./runner.ts";
import type { BenchOptions } from "./scenario.ts";
import { SCENARIOS } from "./scenarios/mod.ts";
import { readProc } from "./support/processes.ts";
import { type Protocol, PROTOCOLS } from "./support/wire.ts";

const USAGE = `deno task bench [options]

  --quick               fewer samples and shorter windows (a smoke run)
  --only a,b            run only these scenarios      --skip a,b   run all but these
  --latency MS          upstream latency of the cold scenarios (default 100)
  --protocol REV        ${PROTOCOLS.join(" or ")} where one revision is spoken (default ${
  PROTOCOLS[0]
})
  --samples N           sequential calls per side in latency scenarios (default 300, quick 60)
  --duration-ms MS      measuring time per side of throughput (default 5000, quick 1000)
  --concurrency N       concurrent clients of throughput (default 20)
  --profile DIR         write a V8 CPU profile of every spawned Priory to DIR
  --out FILE            results file (default bench/results/<date>.json)
  --list                list the scenarios and exit`;

function fail(message: string): never {
  // deno-lint-ignore no-console -- command-line errors go to stderr
  console.error(`bench: ${message}\n\n${USAGE}`);
  Deno.exit(2);
}

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) fail(`--${name} expects a number ≥ 0, got "${raw}"`);
  return value;
}

function names(raw: string | undefined): string[] {
  const list = raw?.split(",").map((name) => name.trim()).filter((name) => name !== "") ?? [];
  const unknown = list.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) fail(`unknown scenario ${unknown.join(", ")}; see --list`);
  return list;
}

const { values } = (() => {
  try {
    return parseArgs({
      args: Deno.args,
      options: {
        quick: { type: "boolean", default: false },
        only: { type: "string" },
        skip: { type: "string" },
        latency: { type: "string" },
        protocol: { type: "string" },
        samples: { type: "string" },
        "duration-ms": { type: "string" },
        concurrency: { type: "string" },
        profile: { type: "string" },
        out: { type: "string" },
        list: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
})();

const toolNames = new Set(TOOLS.map((tool) => tool.name));

if (values.help) {
  // deno-lint-ignore no-console -- the usage is the answer
  console.log(USAGE);
  Deno.exit(0);
}
if (values.list) {
  for (const scenario of SCENARIOS) {
    const absent = scenario.tools.filter((tool) => !toolNames.has(tool));
    const state = absent.length === 0 ? "" : `  (skipped: tool absent: ${absent.join(", ")})`;
    // deno-lint-ignore no-console -- the list is the answer
    console.log(`${scenario.name.padEnd(16)} ${scenario.summary}${state}`);
  }
  Deno.exit(0);
}

const protocol = values.protocol ?? PROTOCOLS[0];
if (!PROTOCOLS.some((known) => known === protocol)) fail(`unknown protocol "${protocol}"`);
const defaults = defaultOptions(values.quick);
const options: BenchOptions = {
  quick: values.quick,
  latencyMs: positive("latency", values.latency, defaults.latencyMs),
  protocol: protocol as Protocol, // checked against PROTOCOLS just above
  samples: Math.max(1, Math.round(positive("samples", values.samples, defaults.samples))),
  durationMs: positive("duration-ms", values["duration-ms"], defaults.durationMs),
  concurrency: Math.max(
    1,
    Math.round(positive("concurrency", values.concurrency, defaults.concurrency)),
  ),
};
const only = names(values.only);
const skip = names(values.skip);
const selected = SCENARIOS.filter((scenario) =>
  (only.length === 0 || only.includes(scenario.name)) && !skip.includes(scenario.name)
);

const loadStart = Deno.loadavg();
const started = performance.now();
const outcomes = await runScenarios(selected, {
  options,
  tools: toolNames,
  ...(values.profile === undefined ? {} : { profileDir: values.profile }),
  // deno-lint-ignore no-console -- progress goes to stderr, the tables to stdout
  note: (message) => console.error(message),
});

const environment: RunEnvironment = {
  date: new Date().toISOString(),
  deno: Deno.version.deno,
  v8: Deno.version.v8,
  typescript: Deno.version.typescript,
  os: `${Deno.build.os} ${Deno.osRelease()} ${Deno.build.arch}`,
  cpu: await cpuModel(),
  cpus: navigator.hardwareConcurrency,
  loadStart,
  loadEnd: Deno.loadavg(),
  sdk: denoConfig.imports["@modelcontextprotocol/server"].replace(/^npm:/, ""),
};
const results: Results = { environment, options, scenarios: outcomes, passed: passed(outcomes) };
const out = values.out ?? `bench/results/${environment.date.replaceAll(":", "-")}.json`;
await Deno.mkdir(new URL(".", new URL(out, `file://${Deno.cwd()}/`)), { recursive: true });
await Deno.writeTextFile(out, `${JSON.stringify(results, null, 2)}\n`);

const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(" ");
// deno-lint-ignore no-console -- the report is the point of the task
console.log([
  "",
  `Priory bench — ${environment.date}, Deno ${environment.deno}, ${environment.sdk}, ${environment.cpus} × ${environment.cpu}`,
  `protocol ${options.protocol}, load average ${load(loadStart)} → ${load(environment.loadEnd)}, ${
    ((performance.now() - started) / 1000).toFixed(0)
  } s`,
  "",
  figuresTable(outcomes),
  "",
  targetsTable(outcomes),
  "",
  `${
    results.passed ? "All targets met" : "Some targets missed or scenarios failed"
  }; results in ${out}`,
].join("\n"));
Deno.exit(results.passed ? 0 : 1);

async function cpuModel(): Promise<string> {
  const info = await readProc("cpuinfo");
  return /^model name\s*:\s*(.+)$/m.exec(info ?? "")?.[1]?.trim() ?? "unknown CPU";
}
