/**
 * Generator, run by hand: derives the project's curated legendary data from the reference pack.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-run scripts/curate_legendaries.ts [pack folder]
 * ```
 *
 * Writes (then formats with `deno fmt`):
 * - `src/data/curated_recipes.json`: for every item of every legendary's tree that the API has no
 *   recipe for, the one Mystic Forge recipe or merchant offer a tree uses (the contract's rule,
 *   `scripts/curation/select.ts`); for every other item an official recipe of the whole market
 *   uses, its merchant offer paid in currencies alone, chosen by rule (2) (Lump of Tin, 10 for 80
 *   coin from the master craftsmen); and the names of the currencies those records take;
 * - `src/data/legendary_coverage.json`: the legendaries this project adds to gw2e-static-data's
 *   list (the Legendary Rune and Sigil), every legendary without a tree, with the reason, and
 *   every item id the trees reach (the warm-up's first read).
 *
 * and prints a report: counts per rule and per category, the leaves, and the data's oddities
 * (what `docs/curated-data.md` records). The pack defaults to `../shared/gw2-data`.
 *
 * @module
 */

import {
  byOutput,
  type PackLegendary,
  readPack,
  type SnapshotItem,
  writeJson,
  writeJsonLines,
} from "./curation/sources.ts";
import {
  type Candidates,
  type Choice,
  chooseRecord,
  currencyOnly,
  findCycles,
  isPromotion,
  itemsOf,
  readIngredients,
  type SourceRecord,
  walkTrees,
  type Way,
} from "./curation/select.ts";

/** The legendary upgrades gw2e-static-data does not list; they join the project's list. */
const UPGRADES: readonly { id: number; source: string }[] = [
  { id: 91536, source: "PvE" }, // Legendary Rune
  { id: 91505, source: "PvE" }, // Legendary Sigil
];

/**
 * Currencies the records take that the 2023 snapshot's `/v2/currencies` predates: id → name.
 * Calcified Gasp (75, Secrets of the Obscure, Inner Nayos) pays for two Obsidian-armor parts;
 * its name is the live API's, as several public GW2 tools list it.
 */
const LATER_CURRENCIES: ReadonlyMap<number, string> = new Map([[75, "Calcified Gasp"]]);

const OUT_RECIPES = "src/data/curated_recipes.json";
const OUT_COVERAGE = "src/data/legendary_coverage.json";

/** A legendary's category, as the coverage table counts it. */
function category(legendary: PackLegendary): string {
  if (legendary.type !== "weapon") return legendary.type;
  return legendary.generation >= 1 ? `gen-${legendary.generation} weapon` : "other weapon";
}

function tradeable(item: SnapshotItem | undefined): boolean | undefined {
  if (item === undefined) return undefined;
  return !item.flags.includes("AccountBound") && !item.flags.includes("SoulbindOnAcquire");
}

async function main(): Promise<void> {
  const pack = await readPack(Deno.args[0]);
  const items = new Map(pack.treeItems.map((item) => [item.id, item]));
  const official = new Map<number, { id: number; itemIds: number[] }[]>();
  for (const recipe of pack.treeRecipes) {
    const list = official.get(recipe.output_item_id) ?? [];
    list.push({ id: recipe.id, itemIds: recipe.ingredients.map(({ item_id }) => item_id) });
    official.set(recipe.output_item_id, list);
  }
  const candidates: Candidates = {
    official,
    forge: byOutput(pack.forge),
    offers: byOutput(pack.merchants),
  };
  const upgradeRows: PackLegendary[] = UPGRADES.map(({ id, source }) => ({
    id,
    name: items.get(id)?.name ?? String(id),
    type: "upgrade",
    generation: -1,
    source,
  }));
  const legendaries = [...pack.legendaries, ...upgradeRows];
  const ways = walkTrees(legendaries.map(({ id }) => id), candidates);

  // The curated records: every item of the trees whose way is a curated choice, ascending id.
  const currencyNames = new Map([
    ...pack.currencies.map((currency) => [currency.id, currency.name] as const),
    ...LATER_CURRENCIES,
  ]);
  const taken = new Set<number>();
  const market = marketChoices(pack.marketOffers, ways, official);
  const recipes = [...ways]
    .flatMap(([id, way]) =>
      way.kind === "curated" ? [{ id, choice: way.choice, market: false }] : []
    )
    .concat(market.map((entry) => ({ ...entry, market: true })))
    .sort((a, b) => a.id - b.id)
    .map(({ id, choice, market }) => {
      const record = choice.record;
      for (const ingredient of choice.ingredients) {
        if (ingredient.type === "Currency") taken.add(ingredient.id);
      }
      const vendor = record.disciplines.includes("Merchant");
      return {
        id,
        name: record.name,
        count: record.output_item_count,
        source: vendor ? "vendor" : "mystic_forge",
        rule: choice.rule,
        ...(vendor && record.merchant ? { merchant: record.merchant.name } : {}),
        in: choice.ingredients.map((
          { type, id, count },
        ) => [type === "Item" ? "I" : "C", id, count]),
        // Not in a legendary's tree: an offer the rest of the market's recipes use.
        ...(market ? { market: true } : {}),
      };
    });
  const currencies = [...taken].sort((a, b) => a - b).map((id) => {
    const name = currencyNames.get(id);
    if (name === undefined) throw new Error(`currency ${id} has no name`);
    return { id, name };
  });

  // Coverage: every legendary has a tree (a curated final record) or a reason.
  const withoutTree = legendaries.flatMap((legendary) => {
    if (ways.get(legendary.id)?.kind === "curated") return [];
    if (ways.get(legendary.id)?.kind === "official") {
      throw new Error(
        `legendary ${legendary.id} has an official recipe: the tree needs no curation`,
      );
    }
    return [{ id: legendary.id, reason: items.has(legendary.id) ? "reward" : "after-data" }];
  });

  const recipeBytes = await writeJsonLines(OUT_RECIPES, { recipes, currencies });
  const coverageBytes = await writeJson(OUT_COVERAGE, {
    upgrades: upgradeRows.map(({ id, name, source }) => ({ id, name, type: "upgrade", source })),
    withoutTree,
    // Every item the chosen trees reach in the snapshot, official parts included: the warm-up
    // reads them all in its first batch instead of waiting for a recipe walk.
    treeItems: [...ways.keys()].sort((a, b) => a - b),
  });
  report({ pack, items, ways, legendaries, candidates, withoutTree, recipeBytes, coverageBytes });
  reportMarket(market, pack.marketOffers);
}

/**
 * The vendor data of the whole market: for each item an official recipe uses that a merchant
 * sells for currencies alone, its offer by rule (2) (the least coin per unit, then the fewest
 * ingredients, then the first in the source). An item of the legendary trees keeps its tree's
 * record, which must be the same offer (its merchants include these); none of these items may
 * have an official recipe, which rule (1) would put first.
 */
function marketChoices(
  offers: readonly SourceRecord[],
  ways: ReadonlyMap<number, Way>,
  official: ReadonlyMap<number, unknown>,
): { id: number; choice: Choice }[] {
  const added: { id: number; choice: Choice }[] = [];
  for (const [id, list] of byOutput(offers)) {
    if (official.has(id)) {
      throw new Error(`market offer for ${id}: the item has an official recipe`);
    }
    const choice = chooseRecord([], list);
    if (choice === undefined || choice.rule !== 2 || !list.every(currencyOnly)) {
      throw new Error(`market offers for ${id} are not all paid in currencies alone`);
    }
    const tree = ways.get(id);
    if (tree === undefined) {
      added.push({ id, choice });
      continue;
    }
    if (tree.kind !== "curated" || JSON.stringify(tree.choice) !== JSON.stringify(choice)) {
      throw new Error(`market offer for ${id}: the legendary trees chose another way`);
    }
  }
  return added;
}

/** Prints the market's vendor data: counts, and the coin vendors chosen. */
function reportMarket(
  added: readonly { id: number; choice: Choice }[],
  offers: readonly SourceRecord[],
): void {
  const items = new Set(offers.map((offer) => offer.output_item_id));
  const coinOnly = (choice: Choice) =>
    choice.ingredients.every((ingredient) => ingredient.id === 1);
  const lines = [
    `market offers: ${offers.length} for ${items.size} items; ${
      items.size - added.length
    } already in the trees, ${added.length} added`,
    `  added, paid in coin alone: ${added.filter(({ choice }) => coinOnly(choice)).length}`,
    `  added, paid in coin and another currency: ${
      added.filter(({ choice }) =>
        !coinOnly(choice) && choice.ingredients.some((ingredient) => ingredient.id === 1)
      ).length
    }`,
    `  added, paid without coin: ${
      added.filter(({ choice }) => !choice.ingredients.some((ingredient) => ingredient.id === 1))
        .length
    }`,
    ...added.map(({ id, choice }) =>
      `  ${id} ${choice.record.name}: ${choice.record.output_item_count} for ${
        choice.ingredients.map((i) => `${i.count}×c${i.id}`).join(" + ")
      } (${choice.record.merchant?.name ?? "no merchant named"})`
    ),
  ];
  // deno-lint-ignore no-console -- a generator run by hand reports on stdout
  console.log(lines.join("\n"));
}

interface ReportInput {
  readonly pack: Awaited<ReturnType<typeof readPack>>;
  readonly items: ReadonlyMap<number, SnapshotItem>;
  readonly ways: ReadonlyMap<number, Way>;
  readonly legendaries: readonly PackLegendary[];
  readonly candidates: Candidates;
  readonly withoutTree: readonly { id: number; reason: string }[];
  readonly recipeBytes: number;
  readonly coverageBytes: number;
}

/** Prints what `docs/curated-data.md` records: counts, coverage, oddities. */
function report(input: ReportInput): void {
  const { items, ways, candidates } = input;
  const lines: string[] = [];
  const name = (id: number) => items.get(id)?.name ?? `(${id}, not in the snapshot)`;
  const kinds = new Map<string, number[]>();
  for (const [id, way] of ways) {
    const kind = way.kind === "curated" ? `rule ${way.choice.rule}` : way.kind;
    kinds.set(kind, [...(kinds.get(kind) ?? []), id]);
  }
  lines.push(`${OUT_RECIPES}: ${input.recipeBytes} bytes; ${OUT_COVERAGE}: ${input.coverageBytes}`);
  lines.push(`tree items: ${ways.size}`);
  for (const kind of ["official", "rule 2", "rule 3", "rule 4", "leaf"]) {
    lines.push(`  ${kind}: ${kinds.get(kind)?.length ?? 0}`);
  }
  const leaves = kinds.get("leaf") ?? [];
  const leafTrade = (value: boolean | undefined) =>
    leaves.filter((id) => tradeable(items.get(id)) === value).length;
  lines.push(
    `  leaves: tradeable ${leafTrade(true)}, untradeable ${leafTrade(false)}, not in the snapshot ${
      leafTrade(undefined)
    }`,
  );

  lines.push("coverage per category (tree / all):");
  const categories = new Map<string, [number, number]>();
  for (const legendary of input.legendaries) {
    const key = category(legendary);
    const [trees, all] = categories.get(key) ?? [0, 0];
    categories.set(key, [trees + (ways.get(legendary.id)?.kind === "curated" ? 1 : 0), all + 1]);
  }
  for (const [key, [trees, all]] of categories) lines.push(`  ${key}: ${trees} / ${all}`);
  for (const { id, reason } of input.withoutTree) lines.push(`  no tree: ${id} ${reason}`);

  const curated = [...ways].flatMap(([id, way]) =>
    way.kind === "curated" ? [[id, way] as const] : []
  );
  lines.push("rule 2 offers for tradeable items:");
  for (const [id, way] of curated) {
    if (way.kind !== "curated" || way.choice.rule !== 2 || tradeable(items.get(id)) !== true) {
      continue;
    }
    const paid = way.choice.ingredients.map((i) => `${i.count}×c${i.id}`).join(" + ");
    lines.push(`  ${id} ${name(id)}: ${way.choice.record.output_item_count} for ${paid}`);
  }
  lines.push("rule 2 beat a forge record:");
  for (const [id, way] of curated) {
    if (way.kind !== "curated" || way.choice.rule !== 2) continue;
    const forge = candidates.forge.get(id) ?? [];
    if (forge.some((record) => !isPromotion(record))) lines.push(`  ${id} ${name(id)}`);
  }
  lines.push("rule 4 (only item-taking offers):");
  for (const [id, way] of curated) {
    if (way.kind !== "curated" || way.choice.rule !== 4) continue;
    lines.push(`  ${id} ${name(id)} (tradeable: ${tradeable(items.get(id))})`);
  }
  lines.push("coin vendors chosen (rule 2 paid in coin):");
  for (const [id, way] of curated) {
    if (way.kind !== "curated" || way.choice.rule !== 2) continue;
    if (!way.choice.ingredients.some((i) => i.id === 1)) continue;
    lines.push(`  ${id} ${name(id)}: ${way.choice.record.merchant?.name ?? "?"}`);
  }

  // Cycles among every candidate record (promotions aside) of the closure's items, versus
  // among the chosen ways.
  const all = new Map<number, number[]>();
  const edge = (from: number, to: number) => all.set(from, [...(all.get(from) ?? []), to]);
  for (const [output, list] of candidates.official) {
    for (const recipe of list) for (const id of recipe.itemIds) edge(output, id);
  }
  for (const record of [...input.pack.forge, ...input.pack.merchants]) {
    if (isPromotion(record)) continue;
    for (const ingredient of readIngredients(record)) {
      if (ingredient.type === "Item") edge(record.output_item_id, ingredient.id);
    }
  }
  const candidateCycles = findCycles(all);
  lines.push(`cycles among candidate records: ${candidateCycles.length}`);
  for (const cycle of candidateCycles) {
    lines.push(`  ${cycle.map((id) => `${id} ${name(id)}`).join(" → ")}`);
  }
  const chosen = new Map([...ways].map(([id, way]) => [id, [...itemsOf(way)]]));
  lines.push(`cycles among the chosen ways: ${findCycles(chosen).length}`);
  const onlyItemTaking = [...candidates.offers].filter(([, offers]) => !offers.some(currencyOnly));
  lines.push(`items whose offers all take items: ${onlyItemTaking.length}`);
  // deno-lint-ignore no-console -- a generator run by hand reports on stdout
  console.log(lines.join("\n"));
}

if (import.meta.main) await main();
