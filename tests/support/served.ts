/**
 * The real server as a child process, the way an operator runs it: the exact command line of a
 * `deno.json` task, its output collected as it comes, and raw 2026-07-28 MCP calls over real
 * HTTP. For tests about what only a process shows: permissions, start-up failures, signals,
 * several instances on one KV file.
 *
 * @module
 */

import { modernPost } from "./app.ts";
import { ROOT, spawnDeno, taskArgs } from "./process.ts";

/** Text a child writes to one stream, collected as it arrives. */
export class Output {
  #text = "";
  #closed = false;
  #waiters: { pattern: RegExp; resolve: (match: RegExpExecArray) => void; reject: () => void }[] =
    [];
  /** Resolves when the stream has ended. */
  readonly done: Promise<void>;

  /** @param stream the child's stdout or stderr */
  constructor(stream: ReadableStream<Uint8Array>) {
    this.done = this.#pump(stream.pipeThrough(new TextDecoderStream()));
  }

  /** Everything written so far. */
  get text(): string {
    return this.#text;
  }

  /** Resolves with the first match of `pattern` in the output; rejects if the stream ends first. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    const match = pattern.exec(this.#text);
    if (match !== null) return Promise.resolve(match);
    if (this.#closed) return Promise.reject(this.#ended(pattern));
    return new Promise((resolve, reject) => {
      this.#waiters.push({ pattern, resolve, reject: () => reject(this.#ended(pattern)) });
    });
  }

  async #pump(stream: ReadableStream<string>): Promise<void> {
    for await (const chunk of stream) {
      this.#text += chunk;
      this.#waiters = this.#waiters.filter((waiter) => {
        const match = waiter.pattern.exec(this.#text);
        if (match !== null) waiter.resolve(match);
        return match === null;
      });
    }
    this.#closed = true;
    for (const waiter of this.#waiters) waiter.reject();
    this.#waiters = [];
  }

  #ended(pattern: RegExp): Error {
    return new Error(`The process ended before printing ${pattern}:\n${this.#text}`);
  }
}

/** How a served process ended. */
export interface Ended {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running server process. */
export interface ServedPriory extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly stdout: Output;
  readonly stderr: Output;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: Deno.Signal): Promise<Ended>;
}

/** Options of {@linkcode servePriory}. */
export interface ServeOptions {
  /** @default "start" */
  readonly task?: "start" | "dev";
  /**
   * Run in this directory instead of the project root (the task's `main.ts` and `deno.json`
   * are then given by absolute path), e.g. so `.priory/` lands in a temporary folder.
   */
  readonly cwd?: string;
}

/**
 * An upstream no test may reach: loopback port 9 (discard), which `fetch` refuses at once as a
 * bad port. Every spawned server runs its background warm-up at start, so one without
 * `GW2_API_BASE` would ask the real GW2 API; tests that need upstream pass the fake's URL.
 */
export const UNREACHABLE_GW2_API_BASE = "http://127.0.0.1:9";

/** Settings that keep a child local and self-contained whatever the parent's environment. */
export const LOCAL_ENV: Readonly<Record<string, string>> = {
  PRIORY_HOSTNAME: "127.0.0.1",
  PORT: "0",
  PRIORY_KV_PATH: ":memory:",
  LOG_LEVEL: "info",
  GW2_API_BASE: UNREACHABLE_GW2_API_BASE,
};

/** The command line of a task, rooted for `cwd` when it is not the project root. */
export async function taskCommand(task: string, cwd?: string): Promise<string[]> {
  const args = await taskArgs(task);
  if (cwd === undefined) return args;
  const main = new URL("main.ts", ROOT).pathname;
  const config = new URL("deno.json", ROOT).pathname;
  return args.flatMap((arg) => arg === "main.ts" ? ["--config", config, main] : [arg]);
}

/**
 * Starts the server with a task's command line and `env` (over {@linkcode LOCAL_ENV}) and waits
 * until it listens.
 *
 * @example
 * ```ts
 * await using server = await servePriory({ MCP_AUTH_TOKEN: "t" });
 * const answer = await callTool(server.url, "t", "gw2_items", { ids: [19721] });
 * ```
 */
export async function servePriory(
  env: Record<string, string>,
  options: ServeOptions = {},
): Promise<ServedPriory> {
  const args = await taskCommand(options.task ?? "start", options.cwd);
  const child = spawnDeno(args, { ...LOCAL_ENV, ...env }, options.cwd);
  const stdout = new Output(child.stdout);
  const stderr = new Output(child.stderr);
  let ended: Promise<Ended> | undefined;
  const stop = (signal: Deno.Signal = "SIGTERM"): Promise<Ended> => {
    ended ??= (async () => {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      const { code } = await child.status;
      await Promise.all([stdout.done, stderr.done]);
      return { code, stdout: stdout.text, stderr: stderr.text };
    })();
    return ended;
  };
  try {
    // `start` logs JSON (`"msg":"listening",…,"port":N`), `dev` its console (`listening  … port=N`).
    const [, port] = await stdout.waitFor(/listening\b.*?\bport"?[:=](\d+)/);
    return {
      url: `http://127.0.0.1:${port}`,
      stdout,
      stderr,
      stop,
      [Symbol.asyncDispose]: async () => void await stop(),
    };
  } catch (error) {
    await stop("SIGKILL");
    throw error;
  }
}

/** A raw 2026-07-28 JSON-RPC request to `url`'s `/mcp` with the bearer `token`. */
export function mcpRequest(
  url: string,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
): Promise<Response> {
  const request = modernPost(method, params, { authorization: `Bearer ${token}` });
  return fetch(new Request(`${url}/mcp`, request));
}

/** Calls a tool over real HTTP and returns its result (throws on a JSON-RPC error). */
export async function callTool(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ structuredContent?: unknown; isError?: boolean; content?: unknown }> {
  const response = await mcpRequest(url, token, "tools/call", { name, arguments: args });
  const message = await response.json();
  if (message.error !== undefined) throw new Error(`tools/call failed: ${JSON.stringify(message)}`);
  return message.result;
}
