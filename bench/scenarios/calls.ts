/**
 * What scenarios share: tool names, the floor's call, result checks, token counting.
 *
 * @module
 */

import { ECHO_TOOL } from "../floor.ts";
import type { BenchFake } from "../scenario.ts";
import type { McpWire, ToolResult } from "../support/wire.ts";

export const ITEMS = "gw2_items";
export const RECIPES = "gw2_recipes";
export const PRICES = "gw2_prices";
export const RECIPE_SEARCH = "gw2_recipe_search";
export const RECIPE_TREE = "priory_recipe_tree";
export const ITEM_SEARCH = "priory_item_search";
export const RANKING = "priory_legendary_ranking";

/** The floor's one call: the echo tool with a short text (an error fails the scenario). */
export async function callFloor(client: McpWire): Promise<ToolResult> {
  return expectResult(await client.callTool(ECHO_TOOL, { text: "ping" }), ECHO_TOOL);
}

/** Returns `result` if it is a success; a tool error fails the scenario with its text. */
export function expectResult(result: ToolResult, tool: string): ToolResult {
  if (result.isError === true) {
    const text = result.content?.map((block) => block.text ?? "").join(" ") ?? "";
    throw new Error(`${tool} answered an error: ${text.slice(0, 300)}`);
  }
  return result;
}

/** The structured result of a successful call (what Claude Code hands the model). */
export function structured(result: ToolResult, tool: string): Record<string, unknown> {
  const value = expectResult(result, tool).structuredContent;
  if (value === undefined) throw new Error(`${tool} answered without structuredContent`);
  return value;
}

/** Bytes of a value as compact JSON. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).byteLength;
}

/** The contract's token measure: bytes / 4. */
export function tokens(value: unknown): number {
  return jsonBytes(value) / 4;
}

/** Requests the fake has received so far. */
export function upstreamRequests(fake: BenchFake): number {
  return fake.fake.control.requests.length;
}

/** A budget so large that a scenario measuring something else never waits for it. */
export const OPEN_BUDGET = { burst: 100_000, perSec: 10_000 } as const;

/**
 * Resolves once `client`'s Priory reports its item catalogue complete (the crawl's first pass is
 * over), polling `priory_item_search` each second, or after `maxMs` regardless. The crawl runs on
 * the next cron minute and, under an open budget, spends its whole pass (~0.25 s of CPU) at
 * once: a steady-state scenario that ignored it would measure the clock minute it happened to
 * straddle. Returns whether the pass was seen complete.
 */
export async function catalogueCrawled(client: McpWire, maxMs = 75_000): Promise<boolean> {
  const until = performance.now() + maxMs;
  for (;;) {
    const found = structured(
      await client.callTool(ITEM_SEARCH, { query: "ectoplasm" }),
      ITEM_SEARCH,
    );
    const index = found.index;
    if (typeof index === "object" && index !== null && "complete" in index && index.complete) {
      return true;
    }
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
