/**
 * The public mode (`PRIORY_AUTH=oauth`): what a player's sign-in costs, what an access token
 * costs a warm call next to the static token, and whether one greedy player can push other
 * players' calls past their deadline.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { FILLER_FIRST_ID, playerKey, TEST_KEYS, WELL_KNOWN } from "../../tests/fake_gw2/mod.ts";
import { ConsentingProvider } from "../../tests/support/oauth.ts";
import type { Figure, Scenario, Target } from "../scenario.ts";
import { interleaved, median, percentile } from "../support/stats.ts";
import { expectResult, ITEMS, OPEN_BUDGET, RANKING } from "./calls.ts";

/**
 * A per-grant call rate the measuring never reaches (the check itself still runs); the calls a
 * grant runs at once keep their default (2). Players say their address in `X-Forwarded-For`, as
 * behind a proxy: the bench's connections all come from 127.0.0.1, and the consent page's key
 * checks are limited per address.
 */
const UNLIMITED = {
  callsBurst: 1_000_000,
  callsPerMinute: 1_000_000_000,
  clientAddressHeader: "x-forwarded-for",
} as const;

/** The address player `n` signs in from (see {@linkcode UNLIMITED}). */
function playerAddress(n: number): Record<string, string> {
  return { "x-forwarded-for": `10.3.${Math.floor(n / 250)}.${(n % 250) + 1}` };
}

/**
 * One sign-in with the MCP SDK client's own OAuth flow; its requests, time and access token.
 * `headers` go on every request (a proxy's `X-Forwarded-For`, naming the player's address).
 */
export async function sdkSignIn(
  mcpUrl: string,
  key: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<{ ms: number; requests: Record<string, number>; total: number; token: string }> {
  const requests: Record<string, number> = {};
  const counting = (request: Request): Promise<Response> => {
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
    const path = new URL(request.url).pathname;
    const label = path.startsWith("/.well-known/") ? path : `${request.method} ${path}`;
    requests[label] = (requests[label] ?? 0) + 1;
    // A browser would follow the consent's 302 to the client's callback; here the provider reads it.
    return fetch(request, { redirect: "manual" });
  };
  const provider = new ConsentingProvider(counting, key);
  const transport = () =>
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      authProvider: provider,
      fetch: (url, init) => counting(new Request(url, init as RequestInit | undefined)),
    });
  const started = performance.now();
  const first = new Client({ name: "priory-bench", version: "1.0.0" });
  const pending = transport();
  await first.connect(pending).then(
    () => {
      throw new Error("connected without signing in");
    },
    () => undefined,
  );
  if (provider.code === undefined) throw new Error("the consent page gave no code");
  await pending.finishAuth(provider.code, provider.iss);
  await first.close();
  const client = new Client({ name: "priory-bench", version: "1.0.0" });
  await client.connect(transport());
  const ms = performance.now() - started;
  await client.close();
  const token = provider.tokens()?.access_token;
  if (token === undefined) throw new Error("the sign-in saved no token");
  const total = Object.values(requests).reduce((sum, count) => sum + count, 0);
  return { ms, requests, total, token };
}

/** The sign-in scenario. */
export const signIn: Scenario = {
  name: "sign-in",
  summary:
    "a player's OAuth sign-in with the MCP SDK client: HTTP requests and time, first and next",
  tools: [],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET, publicMode: UNLIMITED });
    await fake.quiet();
    const before = fake.fake.control.requests.length;
    const first = await sdkSignIn(priory.mcpUrl, TEST_KEYS.full);
    const upstream = fake.fake.control.requests.length - before;
    // The same player again: at most 10 sign-ins of one account start at once (issue 28).
    const runs = ctx.options.quick ? 3 : 9;
    const later: number[] = [];
    for (let run = 0; run < runs; run++) {
      later.push((await sdkSignIn(priory.mcpUrl, TEST_KEYS.full)).ms);
    }
    const figures: Figure[] = [
      {
        label: "requests of one sign-in",
        value: first.total,
        unit: "requests",
        note: Object.entries(first.requests).map(([what, n]) => `${what} ×${n}`).join(", "),
      },
      { label: "GW2 requests of the consent's key check", value: upstream, unit: "requests" },
      { label: "first sign-in, end to end", value: first.ms, unit: "ms" },
      { label: `next sign-ins, median of ${runs}`, value: median(later), unit: "ms" },
    ];
    return { figures, targets: [] };
  },
};

/** The OAuth warm-call scenario. */
export const oauthCall: Scenario = {
  name: "oauth-call",
  summary: "warm gw2_items [19721] with an OAuth access token vs the static token, same server",
  tools: [ITEMS],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: OPEN_BUDGET });
    const priory = await ctx.startPriory(fake, { rate: OPEN_BUDGET, publicMode: UNLIMITED });
    await fake.quiet();
    const { token } = await sdkSignIn(priory.mcpUrl, TEST_KEYS.full);
    const args = { ids: [WELL_KNOWN.globOfEctoplasm] };
    const bearer = ctx.client(priory);
    const oauth = ctx.client(priory, { headers: { authorization: `Bearer ${token}` } });
    expectResult(await bearer.callTool(ITEMS, args), ITEMS);
    const subjects = {
      oauth: async () => expectResult(await oauth.callTool(ITEMS, args), ITEMS),
      static: async () => expectResult(await bearer.callTool(ITEMS, args), ITEMS),
    };
    await interleaved(subjects, ctx.options.quick ? 20 : 1_000);
    ctx.note(`${ctx.options.samples} calls per side`);
    const ms = await interleaved(subjects, ctx.options.samples);
    const ratio = median(ms.oauth) / median(ms.static);
    const figures: Figure[] = [
      { label: "median, access token", value: median(ms.oauth), unit: "ms" },
      { label: "median, static token", value: median(ms.static), unit: "ms" },
      {
        label: "p95, access token / static token",
        value: percentile(ms.oauth, 95),
        unit: "ms",
        note: `static ${percentile(ms.static, 95).toFixed(2)} ms`,
      },
    ];
    const targets: Target[] = [
      {
        label: "warm call with an access token ≤ 1.1× the static token",
        value: ratio,
        unit: "×",
        max: 1.1,
      },
    ];
    return { figures, targets };
  },
};

/** The fairness scenario. */
export const fairness: Scenario = {
  name: "fairness",
  summary:
    "one grant running rankings in a loop, 20 others each making a cold call: none past 15 s",
  tools: [ITEMS, RANKING],
  async run(ctx) {
    // A budget of 2 a second: a cold ranking alone wants hundreds of requests.
    const rate = { burst: 10, perSec: 2 };
    const fake = await ctx.startFake({ rate });
    const priory = await ctx.startPriory(fake, { rate, publicMode: UNLIMITED });
    // 21 players, each a GW2 account of its own (fair use is per account, not per sign-in).
    const grants = [];
    for (let n = 1; n <= 21; n++) {
      grants.push((await sdkSignIn(priory.mcpUrl, playerKey(n), playerAddress(n))).token);
    }
    const [greedy = "", ...others] = grants;
    const durationMs = ctx.options.quick ? 12_000 : 40_000;
    const stopAt = performance.now() + durationMs;
    const before = fake.fake.control.requests.length;
    const rankings = { answered: 0, failed: 0 };
    const greedyClient = ctx.client(priory, { headers: { authorization: `Bearer ${greedy}` } });
    // Three rankings at once, always: the grant's third waits for a slot (2 run at once).
    const loops = Array.from({ length: 3 }, async () => {
      while (performance.now() < stopAt) {
        const result = await greedyClient.callTool(RANKING, { limit: 5 });
        rankings[result.isError === true ? "failed" : "answered"]++;
      }
    });
    const gap = (durationMs - 4_000) / others.length;
    const latencies: number[] = [];
    let failures = 0;
    const reasons = new Set<string>();
    const calls = others.map(async (token, index) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000 + index * gap));
      const client = ctx.client(priory, { headers: { authorization: `Bearer ${token}` } });
      const started = performance.now();
      const result = await client.callTool(ITEMS, { ids: [FILLER_FIRST_ID + 5_000 + index] });
      latencies.push(performance.now() - started);
      if (result.isError === true) {
        failures++;
        reasons.add((result.content?.[0]?.text ?? "").slice(0, 60));
      }
    });
    await Promise.all(calls);
    await Promise.all(loops);
    const upstream = fake.fake.control.requests.length - before;
    const figures: Figure[] = [
      { label: "others' calls, slowest", value: Math.max(...latencies), unit: "ms" },
      { label: "others' calls, median", value: median(latencies), unit: "ms" },
      {
        label: "others' calls that failed",
        value: failures,
        unit: "count",
        ...(reasons.size === 0 ? {} : { note: [...reasons].join(" | ") }),
      },
      {
        label: "greedy rankings answered / failed",
        value: rankings.answered,
        unit: "count",
        note: `${rankings.failed} failed (rate limited or timed out)`,
      },
      {
        label: "upstream requests meanwhile",
        value: upstream,
        unit: "requests",
        note: `budget ${rate.perSec}/s, ${(durationMs / 1000).toFixed(0)} s`,
      },
    ];
    const targets: Target[] = [
      {
        label: "no other player's call past 15 s",
        value: Math.max(...latencies),
        unit: "ms",
        max: 15_000,
      },
      { label: "no other player's call fails", value: failures, unit: "count", max: 0 },
    ];
    return { figures, targets };
  },
};
