/**
 * Running the project's own entry points as child processes, the way a user runs them: the exact
 * command line of a `deno.json` task, spawned with the current Deno binary, its output read until
 * a line of interest.
 *
 * @module
 */

import assert from "node:assert/strict";

/** The project root (where `deno.json` lives). */
export const ROOT = new URL("../../", import.meta.url);

/** The command line of a `deno.json` task, minus the leading `deno`. */
export async function taskArgs(name: string): Promise<string[]> {
  const config: unknown = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const tasks = typeof config === "object" && config !== null && "tasks" in config
    ? config.tasks
    : undefined;
  const task = typeof tasks === "object" && tasks !== null && name in tasks
    ? Reflect.get(tasks, name)
    : undefined;
  assert.equal(typeof task, "string", `deno.json has no task "${name}"`);
  const [deno, ...args] = String(task).split(/\s+/u);
  assert.equal(deno, "deno");
  return args;
}

/** Spawns the current Deno binary (in the project root unless `cwd` says) with piped output. */
export function spawnDeno(
  args: string[],
  env: Record<string, string>,
  cwd: string | URL = ROOT,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args,
    cwd,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/**
 * Reads text until `pattern` matches what was read so far and returns its first group (or the
 * whole match); the rest of the stream is left for {@linkcode drain}.
 */
export async function readUntil(
  reader: ReadableStreamDefaultReader<string>,
  pattern: RegExp,
): Promise<string> {
  let seen = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The process ended before printing ${pattern}: ${seen}`);
    seen += value;
    const match = pattern.exec(seen);
    if (match !== null) return match[1] ?? match[0];
  }
}

/** Reads a stream to its end, discarding it. */
export async function drain(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  while (!(await reader.read()).done) { /* discard */ }
}
