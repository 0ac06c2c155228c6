/**
 * Keeps `deno task bench` from rotting without running it: the scenario registry is well formed,
 * the runner runs a small scenario end to end with its servers inside this process (Priory's
 * handler over a stub GW2 client; started and closed — the sanitizers see any leak), skips a
 * scenario whose tool is absent, survives one that throws, and the budget check tells a
 * conforming upstream stream from one that is not.
 *
 * @module
 */

import assert from "node:assert/strict";
import { defaultOptions, meets, runScenarios, type RunSettings } from "../../bench/runner.ts";
import type { Scenario } from "../../bench/scenario.ts";
import { budget, busiestSecond, peakOverRefill } from "../../bench/scenarios/budget.ts";
import { SCENARIOS } from "../../bench/scenarios/mod.ts";
import { seedsRequestCount } from "../../bench/scenarios/ranking.ts";
import { requestIds } from "../../bench/support/fake.ts";
import { toolsList } from "../../bench/scenarios/tools_list.ts";
import { serveFloor, serveInProcess } from "../../bench/support/in_process.ts";
import { BACKGROUND_LOG, BENCH_TOKEN } from "../../bench/support/processes.ts";
import { warmRun } from "../../bench/scenarios/warm_up.ts";
import { median, percentile } from "../../bench/support/stats.ts";
import { createLogger } from "../../src/log.ts";
import { TOOLS } from "../../src/tools/mod.ts";
import { createTestHandler } from "../support/app.ts";
import { StubGw2Client } from "../tools/_stub_gw2.ts";

const settings: RunSettings = {
  options: defaultOptions(true),
  tools: new Set(TOOLS.map((tool) => tool.name)),
  servers: {
    priory: () => {
      const handler = createTestHandler({
        gw2: new StubGw2Client(),
        policy: { authToken: BENCH_TOKEN },
      });
      return Promise.resolve(serveInProcess(handler, () => handler.close()));
    },
    floor: () => Promise.resolve(serveFloor()),
  },
};

Deno.test("bench: every scenario has a unique kebab-case name, a summary and known tool names", () => {
  const names = SCENARIOS.map((scenario) => scenario.name);
  assert.equal(new Set(names).size, names.length, `duplicate names in ${names.join(", ")}`);
  for (const scenario of SCENARIOS) {
    assert.match(scenario.name, /^[a-z]+(-[a-z]+)*$/);
    assert.ok(scenario.summary.length > 10, `${scenario.name} needs a summary`);
    for (const tool of scenario.tools) assert.match(tool, /^(gw2|priory)_[a-z_]+$/);
  }
  assert.ok(names.includes(toolsList.name) && names.includes(budget.name));
});

Deno.test("bench: the runner runs the tools-list scenario end to end and checks its target", async () => {
  const [outcome] = await runScenarios([toolsList], settings);
  assert.ok(outcome !== undefined);
  assert.equal(outcome.status, "ok", outcome.reason);
  const whole = outcome.figures.find((figure) => figure.label === "tools/list 2025-11-25");
  assert.ok(whole !== undefined && whole.value > 100, JSON.stringify(outcome.figures));
  assert.equal(outcome.targets.length, 1);
  assert.equal(outcome.targets[0]?.pass, true);
});

Deno.test("bench: a scenario whose tool is absent is skipped; one that throws fails alone", async () => {
  const absent: Scenario = {
    name: "absent",
    summary: "needs a tool nobody registered",
    tools: ["priory_not_registered"],
    run: () => Promise.reject(new Error("must not run")),
  };
  const broken: Scenario = {
    name: "broken",
    summary: "starts a fake and Priory, then throws",
    tools: [],
    async run(ctx) {
      await ctx.startPriory(await ctx.startFake());
      throw new Error("measurement went wrong");
    },
  };
  const outcomes = await runScenarios([absent, broken, toolsList], settings);
  assert.deepEqual(outcomes.map((outcome) => [outcome.name, outcome.status, outcome.reason]), [
    ["absent", "skipped", "tool absent: priory_not_registered"],
    ["broken", "failed", "measurement went wrong"],
    ["tools-list", "ok", undefined],
  ]);
});

Deno.test("bench: targets are met within their bounds only; stretch or not", () => {
  assert.equal(meets({ label: "", value: 1.5, unit: "×", max: 1.5 }), true);
  assert.equal(meets({ label: "", value: 1.51, unit: "×", max: 1.5 }), false);
  assert.equal(meets({ label: "", value: 79.9, unit: "%", min: 80 }), false);
  assert.equal(meets({ label: "", value: Number.NaN, unit: "%", min: 80 }), false);
});

Deno.test("bench: the budget check accepts a token-bucket stream and flags a burst beyond it", () => {
  // A bucket of 3 refilled at 2 a second: 3 at once, then one every 500 ms conforms.
  const conforming = [0, 0, 0, 500, 1000, 1500, 2000];
  assert.ok(peakOverRefill(conforming, 2) <= 3);
  assert.equal(busiestSecond(conforming), 4); // any window of under a second
  // A fourth request at once does not.
  assert.ok(peakOverRefill([0, 0, 0, 0, 500], 2) > 3);
});

Deno.test("bench: median and nearest-rank percentiles", () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95), 10);
  assert.equal(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50), 5);
  assert.ok(Number.isNaN(median([])));
});

Deno.test("bench: the ranking's baseline counts one inventory request per character, as the seeds read", () => {
  const request = (path: string, query = "") => ({
    method: "GET",
    path,
    query,
    idCount: 0,
    status: 200,
    keyLabel: undefined,
    at: 0,
  });
  const log = [
    request("/v2/tokeninfo"),
    request("/v2/characters", "ids=all&v=2022-03-09T02:00:00.000Z"),
    request("/v2/characters"),
    request("/v2/commerce/prices", "ids=1,2"),
  ];
  // The one bags request stands for the list plus 19 inventories; every other request is one.
  assert.equal(seedsRequestCount(log, 19), 1 + 20 + 1 + 1);
  assert.deepEqual(requestIds({ query: "ids=1,2,30&v=x" }), [1, 2, 30]);
  assert.deepEqual(requestIds({ query: "ids=all" }), []);
  assert.deepEqual(requestIds({ query: "page=0&page_size=200" }), []);
});

Deno.test("bench: a spawned server keeps the background lines the warm-up scenario waits for", () => {
  const lines: string[] = [];
  const log = createLogger({ level: "info", write: (line) => lines.push(line) });
  log.info("warm-up items read", { ids: 1_119, missing: 2, ms: 600 });
  log.info("recipe catalogue filled", { recipes: 1_274, pages: 7, ms: 700 });
  log.info("background job", { job: "warm", outcome: "ran", ids: 1_119, missing: 2, ms: 1_400 });
  log.info("tool call", { tool: "priory_item_search", outcome: "ok", ms: 3 });
  const kept = lines.filter((line) => BACKGROUND_LOG.test(line));
  assert.equal(kept.length, 3, "every background line, no tool call");
  assert.equal(warmRun(kept)?.ms, 1_400, "the warm-up's run line");
});
