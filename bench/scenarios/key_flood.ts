/**
 * A flood of made-up keys at the consent page (issue 28, item 6): 400 consent POSTs, each with a
 * key of the right shape that GW2 rejects, from 60 senders at once - while 5 players sign in and
 * 20 signed-in players each call a tool, over the production budget (300 at once, 5 a second, on
 * both sides), with the background work (warm-up, market sheet, catalogue crawl) running. Senders
 * and players name their address in `X-Forwarded-For`, which the server is told to read
 * (`PRIORY_CLIENT_ADDRESS_HEADER`): the bench's connections all come from 127.0.0.1.
 *
 * @module
 */

import { backgroundClientOptions } from "../../src/background/jobs.ts";
import { Gw2Keys } from "../../src/gw2/cache/keys.ts";
import { bucketCapacity } from "../../src/gw2/client.ts";
import { refill } from "../../src/gw2/token_bucket.ts";
import { FILLER_FIRST_ID, playerKey } from "../../tests/fake_gw2/mod.ts";
import { madeUpKey, pkce, readConsent } from "../../tests/support/oauth.ts";
import type { BenchServer, Figure, Scenario, Target } from "../scenario.ts";
import { median } from "../support/stats.ts";
import { ITEMS } from "./calls.ts";
import { sdkSignIn } from "./public_mode.ts";

/** The production budget, on Priory's side and the fake's (upstream's per-IP bucket). */
const RATE = { burst: 300, perSec: 5 } as const;
/** Made-up keys posted, and the senders they come from. */
const POSTS = 400;
const SENDERS = 60;
/** Players signing in during the flood, and signed-in players calling a tool during it. */
const SIGNING_IN = 5;
const CALLING = 20;
/** The contract's bound on a tool call. */
const CALL_BOUND_MS = 15_000;

/** A registered client of `origin` with a loopback redirect (what the senders use). */
async function registerClient(origin: string): Promise<string> {
  const response = await fetch(`${origin}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/cb"], client_name: "flood" }),
  });
  const body = await response.json();
  return String(body.client_id);
}

/** One sender's POST: a consent page fetched, then answered Allow with a made-up key. */
async function floodPost(
  origin: string,
  clientId: string,
  address: string,
  key: string,
): Promise<number> {
  const url = new URL(`${origin}/authorize`);
  const { challenge } = await pkce();
  for (
    const [name, value] of Object.entries({
      response_type: "code",
      client_id: clientId,
      redirect_uri: "http://127.0.0.1:9/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
    })
  ) url.searchParams.set(name, value);
  const headers = { "x-forwarded-for": address };
  const page = await readConsent(await fetch(url, { headers }), origin);
  const form = new URLSearchParams({
    request: page.request ?? "",
    decision: "allow",
    gw2_key: key,
  });
  const answer = await fetch(`${origin}/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...headers,
      "content-type": "application/x-www-form-urlencoded",
      origin,
      cookie: page.cookie ?? "",
    },
    body: form.toString(),
  });
  await answer.body?.cancel();
  return answer.status;
}

/** What kind of upstream request a fake's log entry is. */
function kindOf(path: string, query: string): "keys" | "players" | "background" {
  if (path === "/v2/tokeninfo") return "keys";
  if (path.startsWith("/v2/account") || path.startsWith("/v2/characters")) return "players";
  // The players' calls here read /v2/items by id; the background reads pages and whole lists.
  if (path === "/v2/items" && /(^|&)ids=9\d{5}(&|$)/.test(query)) return "players";
  return "background";
}

/**
 * Samples the shared upstream budget's level in Priory's KV file every 100 ms until `stop`
 * aborts; the lowest level seen. (The file is SQLite in WAL mode: reading it does not block
 * Priory's writes.)
 */
async function lowestLevel(kvPath: string, upstream: string, stop: AbortSignal): Promise<number> {
  using kv = await Deno.openKv(kvPath);
  const key = new Gw2Keys(upstream).bucket();
  const capacity = bucketCapacity(RATE.burst, RATE.perSec);
  let lowest = capacity;
  while (!stop.aborted) {
    const entry = await kv.get<{ tokens: number; ts: number }>(key);
    if (entry.value !== null) {
      lowest = Math.min(lowest, refill(entry.value, Date.now(), capacity, RATE.perSec));
    }
    await sleep(100);
  }
  return lowest;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The key-flood scenario. */
export const keyFlood: Scenario = {
  name: "key-flood",
  summary:
    "400 made-up keys at the consent page from 60 senders while 5 players sign in and 20 call tools",
  tools: [ITEMS],
  async run(ctx) {
    const fake = await ctx.startFake({ rate: RATE });
    const kvPath = ctx.kvPath();
    const priory: BenchServer = await ctx.startPriory(fake, {
      kvPath,
      rate: RATE,
      publicMode: {
        callsBurst: 1_000,
        callsPerMinute: 100_000,
        clientAddressHeader: "x-forwarded-for",
      },
    });
    const origin = new URL(priory.mcpUrl).origin;
    // The players who will call tools sign in first, each from an address of their own.
    const tokens: string[] = [];
    for (let n = 1; n <= CALLING; n++) {
      const signedIn = await sdkSignIn(priory.mcpUrl, playerKey(n), {
        "x-forwarded-for": `10.1.0.${n}`,
      });
      tokens.push(signedIn.token);
    }
    const clientId = await registerClient(origin);
    const before = fake.fake.control.requests.length;
    const sampling = new AbortController();
    const level = lowestLevel(kvPath, fake.url, sampling.signal);
    const started = performance.now();
    const startedAt = Date.now();

    // The flood: every sender posts its share of the 400 keys one after another, all at once.
    const statuses: number[] = [];
    const senders = Array.from({ length: SENDERS }, async (_, sender) => {
      for (let n = sender; n < POSTS; n += SENDERS) {
        statuses.push(await floodPost(origin, clientId, `10.66.${sender}.1`, madeUpKey(n)));
      }
    });
    // Meanwhile players sign in, one a second from the first second...
    const signIns = Array.from({ length: SIGNING_IN }, async (_, index) => {
      await sleep(1_000 * (index + 1));
      const at = performance.now();
      try {
        await sdkSignIn(priory.mcpUrl, playerKey(CALLING + 1 + index), {
          "x-forwarded-for": `10.2.0.${index + 1}`,
        });
        return { ok: true, ms: performance.now() - at };
      } catch (error) {
        return { ok: false, ms: performance.now() - at, why: String(error).slice(0, 80) };
      }
    });
    // ...and the signed-in players call a tool each (a cold read), one every half second.
    const calls = tokens.map(async (token, index) => {
      await sleep(500 * (index + 1));
      const client = ctx.client(priory, { headers: { authorization: `Bearer ${token}` } });
      const at = performance.now();
      const result = await client.callTool(ITEMS, { ids: [FILLER_FIRST_ID + 4_000 + index] });
      return { ms: performance.now() - at, ok: result.isError !== true };
    });
    await Promise.all(senders);
    const floodMs = performance.now() - started;
    const signed = await Promise.all(signIns);
    const called = await Promise.all(calls);
    const windowMs = performance.now() - started;
    sampling.abort();
    const lowest = await level;
    const reserve = backgroundClientOptions(RATE.burst).background.reserveTokens;

    const during = fake.fake.control.requests.slice(before).filter((entry) =>
      entry.at >= startedAt
    );

    const upstream = { keys: 0, players: 0, background: 0 };
    for (const entry of during) upstream[kindOf(entry.path, entry.query)]++;
    const throttled = during.filter((entry) => entry.status === 429).length;
    const refused = statuses.filter((status) => status === 429).length;
    const backgroundFailures = (priory.backgroundLog?.() ?? []).filter((line) =>
      /"background job failed"|rate.?limit/i.test(line)
    );
    const seconds = windowMs / 1000;
    const share = 30 + 1 * seconds;
    const slowest = Math.max(...called.map((call) => call.ms));
    const signInFailures = signed.filter((outcome) => !outcome.ok);
    const figures: Figure[] = [
      {
        label: "flood: consent POSTs answered",
        value: statuses.length,
        unit: "count",
        note: `${refused} refused by the limits (429), ${
          statuses.filter((status) => status === 400).length
        } checked and rejected, in ${(floodMs / 1000).toFixed(1)} s`,
      },
      {
        label: "GW2 requests of key checks during the flood",
        value: upstream.keys,
        unit: "requests",
        note: `share allowed ${share.toFixed(0)} (30 at once + 1/s over ${seconds.toFixed(1)} s)`,
      },
      {
        label: "players' sign-ins during the flood",
        value: signed.length - signInFailures.length,
        unit: "count",
        note: `of ${SIGNING_IN}; slowest ${
          Math.max(...signed.map((outcome) => outcome.ms)).toFixed(0)
        } ms${
          signInFailures.length === 0
            ? ""
            : `; failed: ${signInFailures.map((outcome) => outcome.why).join(" | ")}`
        }`,
      },
      { label: "players' tool calls, slowest", value: slowest, unit: "ms" },
      {
        label: "players' tool calls, median",
        value: median(called.map((call) => call.ms)),
        unit: "ms",
        note: `${called.filter((call) => !call.ok).length} of ${CALLING} failed`,
      },
      {
        label: "upstream budget, lowest level during the flood",
        value: lowest,
        unit: "tokens",
        note: `of ${
          bucketCapacity(RATE.burst, RATE.perSec)
        }; the background work runs above ${reserve}`,
      },
      {
        label: "GW2 requests of the background work during the flood",
        value: upstream.background,
        unit: "requests",
        note:
          `players' ${upstream.players}; upstream 429s ${throttled}; background failures ${backgroundFailures.length}`,
      },
    ];
    const targets: Target[] = [
      {
        label: "every real sign-in succeeds",
        value: signInFailures.length,
        unit: "count",
        max: 0,
      },
      { label: "no player call past 15 s", value: slowest, unit: "ms", max: CALL_BOUND_MS },
      {
        label: "no player call fails",
        value: called.filter((call) => !call.ok).length,
        unit: "count",
        max: 0,
      },
      {
        label: "key checks spend no more than their share of the budget",
        value: upstream.keys,
        unit: "requests",
        max: share,
      },
      {
        label: "the background keeps its share: the budget never falls to its reserve",
        value: lowest,
        unit: "tokens",
        min: reserve,
      },
      {
        label: "the budget holds: no 429 from upstream, no background job failed",
        value: throttled + backgroundFailures.length,
        unit: "count",
        max: 0,
      },
    ];
    return { figures, targets };
  },
};
