/**
 * Summarises a V8 CPU profile (`.cpuprofile`, as `deno task bench --profile DIR` writes for each
 * Priory it starts): the functions with the most self time and the most inclusive time, busy time
 * only (idle excluded), project paths shortened.
 *
 * ```sh
 * deno task bench --only warm-call --samples 2000 --profile bench/results/profiles
 * deno run --allow-read bench/profile_summary.ts bench/results/profiles/CPU.*.cpuprofile [filter]
 * ```
 *
 * @module
 */

/** One node of a `.cpuprofile`. */
interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

/** The parts of a `.cpuprofile` read here. */
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Self and inclusive time (µs) per function, and the busy total. */
export function summarise(profile: Profile): {
  readonly busy: number;
  readonly self: Map<string, number>;
  readonly inclusive: Map<string, number>;
} {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    if (node === undefined || node.callFrame.functionName === "(idle)") return;
    busy += delta;
    self.set(label(node), (self.get(label(node)) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame === undefined || seen.has(label(frame))) continue;
      seen.add(label(frame));
      inclusive.set(label(frame), (inclusive.get(label(frame)) ?? 0) + delta);
    }
  });
  return { busy, self, inclusive };
}

/** The project root, stripped from project paths. */
const ROOT = new URL("../", import.meta.url).href;

function label(node: ProfileNode): string {
  const url = node.callFrame.url
    .replace(/^.*\/registry\.npmjs\.org\//, "npm:")
    .replace(ROOT, "");
  return `${node.callFrame.functionName || "(anonymous)"} ${url}:${node.callFrame.lineNumber + 1}`;
}

if (import.meta.main) {
  const [file, filter = ""] = Deno.args;
  if (file === undefined) {
    // deno-lint-ignore no-console -- usage for the human
    console.error("usage: deno run --allow-read bench/profile_summary.ts FILE.cpuprofile [filter]");
    Deno.exit(2);
  }
  const { busy, self, inclusive } = summarise(JSON.parse(await Deno.readTextFile(file)));
  const top = (times: Map<string, number>, count: number) =>
    [...times].filter(([name]) => name.includes(filter)).sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) =>
        `${(us / 1000).toFixed(1).padStart(9)} ms ${
          ((100 * us) / busy).toFixed(1).padStart(5)
        } %  ${name}`
      );
  // deno-lint-ignore no-console -- the summary is the point of the script
  console.log([
    `busy ${(busy / 1000).toFixed(0)} ms (idle excluded)`,
    "self time:",
    ...top(self, 25),
    "inclusive time:",
    ...top(inclusive, 40),
  ].join("\n"));
}
