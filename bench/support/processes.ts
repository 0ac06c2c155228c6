/**
 * The servers the bench talks to, each in its own process on a free port of 127.0.0.1: Priory
 * started exactly as `deno task start` starts it (the task's own command line from `deno.json`,
 * so permissions and flags cannot drift), and the floor (`bench/floor.ts`). Each announces its
 * port in its first log line; the rest of its output is drained so a full pipe never stalls it.
 *
 * @module
 */

import { readUntil, ROOT, taskArgs } from "../../tests/support/process.ts";
import type { BenchServer } from "../scenario.ts";

/** The bearer token of every Priory the bench starts. */
export const BENCH_TOKEN = "bench-token-0123456789abcdef";

/** Options of {@linkcode spawnPriory}. */
export interface SpawnPrioryOptions {
  /** `GW2_API_BASE`: the fake's URL. */
  readonly gw2ApiBase: string;
  /** `PRIORY_KV_PATH`: a KV file (created when absent). */
  readonly kvPath: string;
  /** `GW2_RATE_BURST` / `GW2_RATE_PER_SEC`. */
  readonly rate?: { readonly burst: number; readonly perSec: number };
  /** Directory for a V8 CPU profile written when the process exits (`--cpu-prof`). */
  readonly cpuProfileDir?: string;
  /** `DENO_V8_FLAGS` of the process. */
  readonly v8Flags?: string;
  /** Leave out the start task's `--v8-flags` (V8's default heap sizing). */
  readonly v8Defaults?: boolean;
  /** The public mode, on a port chosen up front (its public URL must name it). */
  readonly publicMode?: {
    readonly callsBurst?: number;
    readonly callsPerMinute?: number;
    /** `PRIORY_CLIENT_ADDRESS_HEADER`: senders then say their address in that header. */
    readonly clientAddressHeader?: string;
  };
}

/** The `PRIORY_SECRET` of a bench Priory in the public mode. */
export const BENCH_SECRET = "bench-secret-for-the-public-mode-0123456789";

/** Starts Priory as `deno task start` does, on a free port, against `gw2ApiBase`. */
export async function spawnPriory(options: SpawnPrioryOptions): Promise<BenchServer> {
  const [run, ...task] = await taskArgs("start");
  const rest = options.v8Defaults === true
    ? task.filter((arg) => !arg.startsWith("--v8-flags="))
    : task;
  const profile = options.cpuProfileDir === undefined
    ? []
    : ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`];
  return await spawnServer([run ?? "run", ...profile, ...rest], prioryEnv(options));
}

/**
 * The environment of a bench Priory: the production defaults but for a free loopback port, the
 * fake as upstream and the given KV and budget. (`PRIORY_HOSTNAME` is the contract's name,
 * `HOSTNAME` the one read before it; both are set.)
 */
function prioryEnv(options: SpawnPrioryOptions): Record<string, string> {
  const rate = options.rate ?? { burst: 300, perSec: 5 };
  const port = options.publicMode === undefined ? 0 : freePort();
  return {
    MCP_AUTH_TOKEN: BENCH_TOKEN,
    PORT: String(port),
    ...(options.publicMode === undefined ? {} : publicEnv(port, options.publicMode)),
    HOSTNAME: "127.0.0.1",
    PRIORY_HOSTNAME: "127.0.0.1",
    GW2_API_BASE: options.gw2ApiBase,
    PRIORY_KV_PATH: options.kvPath,
    GW2_RATE_BURST: String(rate.burst),
    GW2_RATE_PER_SEC: String(rate.perSec),
    LOG_LEVEL: "info",
    ...(options.v8Flags === undefined ? {} : { DENO_V8_FLAGS: options.v8Flags }),
  };
}

/** The public mode's variables for a server on `port`. */
function publicEnv(
  port: number,
  rate: NonNullable<SpawnPrioryOptions["publicMode"]>,
): Record<string, string> {
  return {
    PRIORY_AUTH: "oauth",
    PRIORY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PRIORY_SECRET: BENCH_SECRET,
    ...(rate.callsBurst === undefined ? {} : { PRIORY_GRANT_CALLS_BURST: String(rate.callsBurst) }),
    ...(rate.callsPerMinute === undefined
      ? {}
      : { PRIORY_GRANT_CALLS_PER_MINUTE: String(rate.callsPerMinute) }),
    ...(rate.clientAddressHeader === undefined
      ? {}
      : { PRIORY_CLIENT_ADDRESS_HEADER: rate.clientAddressHeader }),
  };
}

/** A loopback port free right now (the public mode must know its port before it listens). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/**
 * Starts the floor server (`bench/floor.ts`) on a free port; with `cpuProfileDir`, it writes a V8
 * CPU profile there when it exits, to set next to Priory's.
 */
export async function spawnFloor(cpuProfileDir?: string): Promise<BenchServer> {
  const profile = cpuProfileDir === undefined
    ? []
    : ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`];
  return await spawnServer(["run", ...profile, "--allow-net=127.0.0.1", "bench/floor.ts"], {});
}

async function spawnServer(args: string[], env: Record<string, string>): Promise<BenchServer> {
  const spawnedAt = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { ...env, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const errors = collect(stderr);
  let port: string;
  try {
    port = await readUntil(stdout, /"msg":"listening"[^\n]*?"port":(\d+)/);
  } catch (error) {
    const detail = await errors;
    throw new Error(`${args.at(-1)} did not start: ${String(error)} ${detail}`.trim());
  }
  const listeningAt = performance.now();
  const background: string[] = [];
  const drained = keepLines(stdout, BACKGROUND_LOG, background);
  let closing: Promise<void> | undefined;
  return {
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    spawnedAt,
    listeningAt,
    memory: () => processMemory(child.pid),
    cpuTime: () => processCpuTime(child.pid),
    backgroundLog: () => background,
    close: () =>
      closing ??= (async () => {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await child.status;
        clearTimeout(timer);
        await Promise.all([drained, errors]);
      })(),
  };
}

/**
 * The log lines a spawned server's `backgroundLog` keeps: each background job run (`background
 * job`, `background job failed`), the warm-up's milestone (`warm-up items read`), the recipe
 * catalogue's lines (`recipe catalogue filled`, …), the name index's (`name index loaded`, …) and
 * a failed read of the GW2 cache (`gw2 cache read failed`: a KV read past its bound).
 */
export const BACKGROUND_LOG =
  /"msg":"(?:background job|warm-up|recipe catalogue|name index|gw2 cache read failed)/;

/** Reads a stream of lines to its end, keeping in `into` those matching `pattern`. */
async function keepLines(
  reader: ReadableStreamDefaultReader<string>,
  pattern: RegExp,
  into: string[],
): Promise<void> {
  let partial = "";
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    const lines = (partial + step.value).split("\n");
    partial = lines.pop() ?? "";
    into.push(...lines.filter((line) => pattern.test(line)));
  }
}

/** Reads a stream to its end, keeping the last 2,000 characters (for a startup failure). */
async function collect(reader: ReadableStreamDefaultReader<string>): Promise<string> {
  let tail = "";
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    tail = (tail + step.value).slice(-2_000);
  }
  return tail;
}

/**
 * A file under `/proc` (e.g. `cpuinfo`, `1234/status`), or undefined where there is none. Read
 * through `cat`: Deno asks for `--allow-all` to read `/proc` entries, and the bench may already
 * run processes.
 */
export async function readProc(path: string): Promise<string | undefined> {
  try {
    const { success, stdout } = await new Deno.Command("cat", {
      args: [`/proc/${path}`],
      stdout: "piped",
      stderr: "null",
    }).output();
    return success ? new TextDecoder().decode(stdout) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident and peak resident memory of a process, in bytes (Linux `/proc`; else undefined). */
export async function processMemory(
  pid: number,
): Promise<{ readonly rss: number; readonly peak: number } | undefined> {
  const status = await readProc(`${pid}/status`);
  if (status === undefined) return undefined;
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  const rss = kib("VmRSS");
  const peak = kib("VmHWM");
  return Number.isFinite(rss) ? { rss: rss * 1024, peak: peak * 1024 } : undefined;
}

/** Linux's clock ticks per second for `/proc/<pid>/stat` (`getconf CLK_TCK`, 100 on x86-64). */
const CLOCK_TICKS = 100;

/** User plus system CPU time of a process and all its threads, ms (Linux `/proc`; else undefined). */
export async function processCpuTime(pid: number): Promise<number | undefined> {
  const stat = await readProc(`${pid}/stat`);
  if (stat === undefined) return undefined;
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : undefined;
}
