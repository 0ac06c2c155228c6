/**
 * The prompts: the common plans as ready-made requests (`prompts/list`, `prompts/get`; Claude
 * Code lists them as slash commands). Each names the tools to call and in which order; every
 * argument is optional (the agent asks when one is missing), and the legendary and item names
 * complete (`completion/complete`, see `complete.ts`).
 *
 * Each takes the player's language too (`lang`: one of GW2's five, completed): the text then asks
 * for every tool's names in it and for an answer in it. In the public mode the texts say the key
 * comes from the player's sign-in, as the tools' texts do there (`src/mcp/key_wording.ts`): no
 * host of that mode can send an `X-GW2-Key` header.
 *
 * The whole `prompts/list` answer stays within {@linkcode PROMPTS_TOKEN_BUDGET}: every client
 * that lists prompts pays for it.
 *
 * @module
 */

import { completable, type McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { type Lang, LANGUAGES } from "../gw2/types.ts";
import type { NameIndex } from "../search/name_index.ts";
import { MAX_RANKING_LIMIT } from "../tools/priory_legendary_ranking.ts";
import { MAX_TREE_QUANTITY } from "../tools/priory_recipe_tree.ts";
import { completeItem, completeLegendary } from "./complete.ts";

/** The ceiling for the whole `prompts/list` answer, in tokens (bytes / 4). */
export const PROMPTS_TOKEN_BUDGET = 500;

/** What prompts may use: the item-name index, for item completions; where keys come from. */
export interface PromptDeps {
  readonly names?: NameIndex | undefined;
  /** The public mode: the player's key comes from their sign-in, not an `X-GW2-Key` header. */
  readonly signedIn?: boolean | undefined;
}

/** The arguments of `prompts/get`, validated by the prompt's schema: strings, or absent. */
type PromptArgs = Readonly<Record<string, unknown>>;

/** One prompt, independent of the SDK. */
export interface PromptDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The argument schema (every field an optional string), its completions wired to `deps`. */
  args(deps: PromptDeps): z.ZodObject;
  /** The user message the prompt expands to (worded for where `deps` says keys come from). */
  text(args: PromptArgs, deps: PromptDeps): string;
}

/** `value` as a whole number within `[min, max]`, or `fallback`. */
function wholeNumber(value: unknown, min: number, max: number, fallback: number): number {
  const parsed = typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isInteger(parsed) && parsed >= min && parsed <= max ? parsed : fallback;
}

/** `value` in quotes, or `undefined` when it is absent or blank. */
function quoted(value: unknown): string | undefined {
  const trimmed = typeof value === "string" ? value.trim() : "";
  return trimmed === "" ? undefined : `"${trimmed}"`;
}

const COIN = "Write coin as gold/silver/copper.";

/** What each language is called in that language, for the answer the prompt asks for. */
const LANGUAGE_NAMES: Readonly<Record<Lang, string>> = {
  en: "English",
  de: "German (Deutsch)",
  fr: "French (français)",
  es: "Spanish (español)",
  zh: "Chinese (\u4E2D\u6587)",
};

/** `value` as one of GW2's languages ("DE", " fr-FR " included), or `undefined`. */
function languageOf(value: unknown): Lang | undefined {
  if (typeof value !== "string") return undefined;
  const code = value.trim().toLowerCase().split("-")[0];
  return LANGUAGES.find((lang) => lang === code);
}

/**
 * The sentence a prompt ends with for a language other than English: names in it from every
 * tool, and the answer in it.
 */
function inLanguage(value: unknown): string[] {
  const lang = languageOf(value);
  if (lang === undefined || lang === "en") return [];
  return [
    `Pass lang: "${lang}" to every tool that takes it, and answer in ${LANGUAGE_NAMES[lang]}.`,
  ];
}

/** The optional `lang` argument every prompt takes, completed from the five codes. */
function langArgument(): z.ZodOptional<z.ZodString> {
  return completable(
    z.string().describe("Language: en, de, fr, es or zh"),
    (typed: string) => LANGUAGES.filter((lang) => lang.startsWith(typed.trim().toLowerCase())),
  ).optional();
}

const planLegendary: PromptDefinition = {
  name: "plan_legendary",
  title: "Plan a legendary",
  description: "Plan crafting a legendary from what you own: cost, shopping list, what to earn.",
  args: (deps) =>
    z.object({
      legendary: completable(
        z.string().describe("Legendary name or item id"),
        (typed) => completeLegendary(typed, deps.names),
      ).optional(),
      lang: langArgument(),
    }),
  text: ({ legendary, lang }, { signedIn }) => {
    const which = quoted(legendary);
    return [
      which === undefined
        ? "Help me plan crafting a Guild Wars 2 legendary: ask me which one (priory_legendaries lists them)."
        : `Plan how I craft the Guild Wars 2 legendary ${which}.`,
      "Find its item id with priory_legendaries (priory_item_search for any other name).",
      "Call priory_recipe_tree with that itemId and useAccount: true, so what I own is used first;",
      signedIn
        ? "if it says my key lacks a permission, call it without useAccount and say so."
        : "if it says the X-GW2-Key header is missing, call it without useAccount and say so.",
      "Summarise: total craft cost, the shopping list (toBuy), what I must earn (unavailable items,",
      `other currencies) and the profit if I sold it instead. ${COIN}`,
      ...inLanguage(lang),
    ].join(" ");
  },
};

const DEFAULT_COMPARED = 5;

const bestLegendary: PromptDefinition = {
  name: "best_legendary",
  title: "Best legendary to craft",
  description: "The most profitable legendary to craft from what you own, and its plan.",
  args: () =>
    z.object({
      limit: z.string().describe(`How many to compare (default ${DEFAULT_COMPARED})`).optional(),
      lang: langArgument(),
    }),
  text: ({ limit, lang }, { signedIn }) => {
    const compared = wholeNumber(limit, 1, MAX_RANKING_LIMIT, DEFAULT_COMPARED);
    return [
      "Which Guild Wars 2 legendary is most worth crafting from what I own?",
      `Call priory_legendary_ranking with limit ${compared} (it reads my holdings through the`,
      `${
        signedIn ? "key of my sign-in" : "X-GW2-Key header"
      }; on a cold server it is slow, and if it times out, call it once more).`,
      "Compare the rows: profit, cost still to spend, what my holdings save; flag partial rows",
      "(items to earn: the profit is an upper bound). Then call priory_recipe_tree for the best one",
      `with useAccount: true and give me its shopping list (toBuy). ${COIN}`,
      ...inLanguage(lang),
    ].join(" ");
  },
};

const craftOrBuy: PromptDefinition = {
  name: "craft_or_buy",
  title: "Craft or buy?",
  description: "Whether crafting an item beats buying it on the Trading Post.",
  args: (deps) =>
    z.object({
      item: completable(
        z.string().describe("Item name, chat link or id"),
        (typed) => completeItem(deps.names, typed),
      ).optional(),
      quantity: z.string().describe(`Units, 1\u2013${MAX_TREE_QUANTITY} (default 1)`).optional(),
      lang: langArgument(),
    }),
  text: ({ item, quantity, lang }) => {
    const which = quoted(item);
    const units = wholeNumber(quantity, 1, MAX_TREE_QUANTITY, 1);
    return [
      which === undefined
        ? "Help me decide whether to craft or buy a Guild Wars 2 item: ask me which one."
        : `Should I craft or buy ${which}${units > 1 ? ` (${units} units)` : ""} in Guild Wars 2?`,
      "Find its item id with priory_item_search (a chat link or an id works too), then call",
      `priory_recipe_tree with that itemId and quantity ${units}.`,
      "Compare totalCraftCost with rootBuyPrice (buying it ready-made) and say which is cheaper",
      "and by how much; name the ingredients where buying beat crafting, and anything that can be",
      `neither bought nor crafted. ${COIN}`,
      ...inLanguage(lang),
    ].join(" ");
  },
};

const planDay: PromptDefinition = {
  name: "plan_day",
  title: "Plan my day in GW2",
  description: "What is left today and this week, and what your Astral Acclaim buys best.",
  args: () => z.object({ lang: langArgument() }),
  text: ({ lang }, { signedIn }) =>
    [
      "Plan my day in Guild Wars 2. Call priory_today (it reads my account through the",
      `${
        signedIn ? "key of my sign-in" : "X-GW2-Key header"
      }; if it lists unread parts, say which permission my key lacks).`,
      "List what is left today (daily crafts, the most profitable first; world bosses; map",
      "chests; dungeon paths) and this week (raids by wing; the Wizard's Vault objectives to",
      "finish and rewards to claim), with the time to each reset; if it is stale, say I have not",
      "played since that reset. Then call priory_wizards_vault and name the best rewards my",
      `Astral Acclaim affords. ${COIN}`,
      ...inLanguage(lang),
    ].join(" "),
};

const TP_WINDOWS = ["1d", "7d", "30d", "90d"];

const checkTradingPost: PromptDefinition = {
  name: "check_trading_post",
  title: "Check my Trading Post",
  description: "Undercut listings, outbid orders, the delivery box, what you earned.",
  args: () =>
    z.object({
      window: z.string().describe("1d, 7d, 30d or 90d (default 7d)").optional(),
      lang: langArgument(),
    }),
  text: ({ window, lang }, { signedIn }) => {
    const asked = typeof window === "string" ? window.trim().toLowerCase() : "";
    const span = TP_WINDOWS.includes(asked) ? asked : "7d";
    return [
      `Check my Guild Wars 2 Trading Post: call priory_trading_post with window "${span}".`,
      signedIn
        ? "If it says my key lacks the tradingpost permission, tell me to sign in again with a key that has it."
        : "If it says my key lacks the tradingpost permission, tell me to put a key with it in the X-GW2-Key header.",
      "Tell me first which listings are undercut and which buy orders are outbid, with the units",
      "ahead of each and the price that would put it first (priory_price_history of an undercut item",
      "says whether its price is falling); then what waits in my delivery box and what it is worth;",
      `then what I earned over the window after fees, the profit and the items that earned most. ${COIN}`,
      ...inLanguage(lang),
    ].join(" ");
  },
};

/** Every prompt, in `prompts/list` order. */
export const PROMPTS: readonly PromptDefinition[] = [
  planLegendary,
  bestLegendary,
  craftOrBuy,
  planDay,
  checkTradingPost,
];

/**
 * Registers `prompts` on `server` (`prompts/list`, `prompts/get`, and `completion/complete` for
 * their completable arguments). The argument schemas are made per call, bound to `deps`.
 *
 * @example
 * ```ts
 * registerPrompts(server, { names });
 * ```
 */
export function registerPrompts(
  server: McpServer,
  deps: PromptDeps,
  prompts: readonly PromptDefinition[] = PROMPTS,
): void {
  for (const prompt of prompts) {
    server.registerPrompt(prompt.name, {
      title: prompt.title,
      description: prompt.description,
      argsSchema: prompt.args(deps),
    }, (args: PromptArgs) => ({
      description: prompt.description,
      messages: [{ role: "user", content: { type: "text", text: prompt.text(args, deps) } }],
    }));
  }
}
