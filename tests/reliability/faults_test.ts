/**
 * Fault injection over the whole stack: the production handler, the real GW2 client (in-memory
 * KV) and the fake GW2 API injecting each failure upstream can produce. Every tool call answers
 * within the contract's 15 s — a result, a stale-if-error result, or one actionable error — on
 * the test clock (`settleOnClock` moves it; nothing waits in real time), and the server stays
 * healthy: the next normal call succeeds.
 *
 * docs/reliability.md carries the matrix these tests prove.
 */
import assert from "node:assert/strict";
import type { FakeFault } from "../fake_gw2/mod.ts";
import { createFakeGw2, WELL_KNOWN } from "../fake_gw2/mod.ts";
import { createTestHandler, modernPost, readRpc, startTestApp } from "../support/app.ts";
import { ManualClock, settleOnClock, track, until, within } from "../support/clock.ts";
import { clientOverFake } from "../support/fake_client.ts";
import { openMemoryKv, stallingKv } from "../support/kv.ts";

/** The contract's bound on a tool call. */
const CONTRACT_MS = 15_000;
const DAY = 86_400_000;
const IDS = [WELL_KNOWN.globOfEctoplasm, WELL_KNOWN.mysticClover];

interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown> | undefined;
  /** Clock time from the request to the answer. */
  readonly elapsedMs: number;
}

/** One `tools/call` through the handler: its JSON-RPC answer. */
function sendCall(
  handler: (request: Request) => Promise<Response>,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return (async () =>
    readRpc(await handler(modernPost("tools/call", { name, arguments: args }))))();
}

/** One `tools/call` through the handler, driven on `clock` until it answers. */
async function callTool(
  handler: (request: Request) => Promise<Response>,
  clock: ManualClock,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolAnswer> {
  const settled = await settleOnClock(sendCall(handler, name, args), clock);
  if (!settled.ok) throw settled.error;
  return toolAnswer(settled.value, settled.elapsedMs);
}

function toolAnswer(message: Record<string, unknown>, elapsedMs: number): ToolAnswer {
  const result = message.result as {
    isError?: boolean;
    content: { text: string }[];
    structuredContent?: Record<string, unknown>;
  };
  assert.ok(result, JSON.stringify(message));
  assert.equal(result.content.length, 1);
  return {
    isError: result.isError === true,
    text: result.content[0]?.text ?? "",
    structured: result.structuredContent,
    elapsedMs,
  };
}

/** What every failure answer must be: one actionable sentence, nothing internal. */
function assertActionable(answer: ToolAnswer, pattern: RegExp): void {
  assert.equal(answer.isError, true, answer.text);
  assert.equal(answer.structured, undefined);
  assert.match(answer.text, pattern);
  assert.match(answer.text, /Retry/);
  assert.doesNotMatch(answer.text, /gw2\.test|\/v2\/|https?:|\.ts\b|Error\b|\bat \S+:\d+/);
}

type Injection =
  | { readonly fault: FakeFault }
  | { readonly latencyMs: number };

/** The fault matrix: what upstream does, and what the agent reads. */
const MATRIX: readonly [string, Injection, RegExp][] = [
  ["429 storm", { fault: "rate_limited" }, /^Rate limited: .*Retry in \d+ s/],
  ["500s", { fault: "server_error" }, /^GW2 API unavailable \(HTTP 500\): .*failing on its side/],
  ["HTML 503", { fault: "html_503" }, /^GW2 API unavailable \(HTTP 503\): .*disabled the whole/],
  ["API not active", { fault: "not_active" }, /^GW2 API unavailable \(HTTP 503\): .*switched/],
  [
    "truncated JSON",
    { fault: "truncated_json" },
    /^GW2 API unavailable \(HTTP 200\): .*not be read/,
  ],
  ["hang", { fault: "hang" }, /^GW2 API unavailable: the GW2 API did not answer in time/],
  [
    "20 s responses",
    { latencyMs: 20_000 },
    /^GW2 API unavailable: the GW2 API did not answer in time/,
  ],
];

function inject(app: Awaited<ReturnType<typeof startTestApp>>, injection: Injection): void {
  if ("fault" in injection) app.fake.control.injectFault(injection.fault, { times: Infinity });
  else app.fake.control.setLatency(injection.latencyMs);
}

function heal(app: Awaited<ReturnType<typeof startTestApp>>): void {
  app.fake.control.clearFaults();
  app.fake.control.setLatency(0);
}

for (
  const [tool, args] of [["gw2_items", { ids: IDS }], ["gw2_recipe_search", {
    input: IDS[0],
  }]] as const
) {
  Deno.test(`faults: ${tool} answers every upstream failure actionably within 15 s, then recovers`, async (t) => {
    for (const [label, injection, pattern] of MATRIX) {
      await t.step(label, async () => {
        await using app = await startTestApp({ latencyOnClock: true });
        inject(app, injection);
        const failed = await callTool(app.handler, app.clock, tool, args);
        assertActionable(failed, pattern);
        assert.ok(failed.elapsedMs < CONTRACT_MS, `${label}: ${failed.elapsedMs} ms`);
        heal(app);
        const healthy = await callTool(app.handler, app.clock, tool, args);
        assert.equal(healthy.isError, false, `after ${label}: ${healthy.text}`);
      });
    }
  });

  Deno.test(`faults: ${tool} answers from an expired cache entry instead, within 15 s`, async (t) => {
    for (const [label, injection] of MATRIX) {
      await t.step(label, async () => {
        await using app = await startTestApp({ latencyOnClock: true });
        const fresh = await callTool(app.handler, app.clock, tool, args);
        assert.equal(fresh.isError, false, fresh.text);
        app.clock.advance(2 * DAY);
        inject(app, injection);
        const stale = await callTool(app.handler, app.clock, tool, args);
        assert.equal(stale.isError, false, `${label}: ${stale.text}`);
        assert.ok(stale.elapsedMs < CONTRACT_MS, `${label}: ${stale.elapsedMs} ms`);
        assert.ok(Number(stale.structured?.stale_age_s) >= 2 * 86_400, JSON.stringify(stale));
        const { stale_age_s: _, ...same } = stale.structured ?? {};
        assert.deepEqual(same, fresh.structured, "the same answer, with its age");
      });
    }
  });
}

Deno.test("faults: the bounds, precisely — a hang at 14 s, a 429 storm in under 2 s, a slow answer on time", async () => {
  await using app = await startTestApp({ latencyOnClock: true });
  app.fake.control.injectFault("hang", { times: Infinity });
  // The hang on clock steps the test takes: the first attempt's 10 s timeout once upstream has
  // it, the deadline once the retry is sent (settleOnClock's creep while KV answers could leave
  // a loaded machine no room for the retry, and answer before 14 s).
  const started = app.clock.now();
  const call = track(sendCall(app.handler, "gw2_items", { ids: IDS }));
  const sent = () => app.fake.control.requests.length;
  await until(() => sent() === 1 || call.settled, "the first attempt");
  app.clock.advance(10_000);
  await until(() => sent() === 2 || call.settled, "the retry");
  app.clock.advance(started + 14_000 - app.clock.now());
  const hang = toolAnswer(await within(call.promise, "the hang's answer"), 0);
  assertActionable(hang, /did not answer in time/);
  assert.equal(app.clock.now() - started, 14_000, "the work deadline: 15 s less the 1 s margin");
  assert.equal(sent(), 2, "the first attempt and its retry");
  heal(app);
  app.fake.control.injectFault("rate_limited", { times: Infinity });
  const paused = app.clock.delays.length;
  const storm = await callTool(app.handler, app.clock, "gw2_prices", { ids: IDS });
  // The pauses it asked for (backoffs, refills after the drain), which the clock's creep while
  // KV answers on a loaded machine can only shorten.
  const stormPauses = app.clock.delays.slice(paused).reduce((sum, ms) => sum + ms, 0);
  assert.ok(stormPauses < 2_000, `429 storm: paused ${stormPauses} ms`);
  assert.ok(storm.elapsedMs < CONTRACT_MS, `429 storm: ${storm.elapsedMs} ms`);
  heal(app);
  app.fake.control.setLatency(3_000);
  const sentBefore = app.fake.control.requests.length;
  const slow = await callTool(app.handler, app.clock, "gw2_recipes", {
    ids: [WELL_KNOWN.orichalcumIngotRecipe],
  });
  assert.equal(slow.isError, false, slow.text);
  // On time: after its 3 s, by its first attempt (whose timeout is 10 s), not a retry.
  assert.ok(
    slow.elapsedMs >= 3_000 && slow.elapsedMs < 10_000,
    `3 s upstream: ${slow.elapsedMs} ms`,
  );
  assert.equal(app.fake.control.requests.length - sentBefore, 1, "one request, no retry");
  assert.equal(app.clock.pendingSleeps, 0, "no timer outlives its call");
});

Deno.test("faults: a stalled database is named as the server's storage, within 15 s", async () => {
  using kv = await openMemoryKv();
  const clock = new ManualClock({ advance: "delays" });
  const fake = createFakeGw2({ now: () => clock.now() });
  const gw2 = clientOverFake(stallingKv(kv, ["get", "getMany", "commit"]), clock, fake, {
    kvClock: clock,
  });
  await using handler = createTestHandler({ gw2, clock });
  const answer = await callTool(handler, clock, "gw2_items", { ids: IDS });
  assertActionable(answer, /^Server storage unavailable: .*Deno KV/);
  // The cache lookup gives up after 2 s (a miss), the 2 ms window, the budget take after 2 s
  // more: fail closed.
  assert.equal(answer.elapsedMs, 4_002);
  assert.deepEqual(fake.control.requests, [], "GW2 was not asked without a budget");
});
