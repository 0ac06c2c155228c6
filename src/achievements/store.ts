/**
 * The achievement catalogue in Deno KV: every `/v2/achievements` record reduced to what the
 * lookups need (`layout.ts`), with its name in each language read, written page by page into a
 * **generation** of its own and published by one write of the head (`src/kv/generations.ts`),
 * as the recipe catalogue is. Layout, under `["achievements", "v1", <upstream base URL>]`:
 *
 * | key suffix | value |
 * |---|---|
 * | `"head"` | `{generation, completedAt, count, langs}`: the complete generation, its languages |
 * | `"pages", gen, lang, page, chunk` | a page's chunk in one language (`layout.ts`) |
 *
 * English pages carry the records; the others only ids and names. A generation filled on demand
 * (`catalogue.ts`) holds English alone (`langs: ["en"]`); the crawl's holds all five.
 *
 * @module
 */

import { z } from "zod";
import { type Lang, LANGUAGES } from "../gw2/types.ts";
import { GenerationStore } from "../kv/generations.ts";
import { chunkPage, readChunk } from "./layout.ts";
import type { IndexEntry } from "./index.ts";

const HeadSchema = z.object({
  generation: z.number(),
  /** When it was complete (epoch ms). */
  completedAt: z.number(),
  /** Records in it: a load that finds another number in English is incomplete. */
  count: z.number().int().nonnegative(),
  /** The languages whose names it holds (English first, always). */
  langs: z.array(z.enum(LANGUAGES)).min(1),
  /** The generation it replaced (kept until the next is published: an instance may read it). */
  previous: z.number().optional(),
});

/** The published head. */
export type AchievementsHead = z.infer<typeof HeadSchema>;

/** Options of {@linkcode AchievementStore}. */
export interface AchievementStoreOptions {
  readonly kv: Deno.Kv;
  /** Keeps the catalogues of different upstreams apart: pass the upstream base URL. */
  readonly namespace: string;
}

/** The KV side of the achievement catalogue. */
export class AchievementStore {
  readonly #kv: Deno.Kv;
  readonly #generations: GenerationStore<AchievementsHead>;

  /** @param options the KV and the namespace */
  constructor(options: AchievementStoreOptions) {
    this.#kv = options.kv;
    const root = ["achievements", "v1", options.namespace];
    this.#generations = new GenerationStore({
      kv: options.kv,
      headKey: [...root, "head"],
      dataPrefix: [...root, "pages"],
      parseHead: (value) => {
        const parsed = HeadSchema.safeParse(value);
        return parsed.success ? parsed.data : undefined;
      },
    });
  }

  /** The head: the complete generation, if any. */
  head(): Promise<AchievementsHead | undefined> {
    return this.#generations.head();
  }

  /** Adds one page of `lang` (a few chunk writes) of generation `generation` to `op`. */
  addPage(
    op: Deno.AtomicOperation,
    generation: number,
    lang: Lang,
    page: number,
    entries: readonly IndexEntry[],
  ): Deno.AtomicOperation {
    chunkPage(entries).forEach((chunk, index) => {
      op.set(this.#generations.key(generation, [lang, page, index]), chunk);
    });
    return op;
  }

  /** Adds the publication of `head` to `op`: lookups switch to it on commit. */
  publish(op: Deno.AtomicOperation, head: AchievementsHead): Deno.AtomicOperation {
    return this.#generations.publish(op, head);
  }

  /**
   * Writes a whole catalogue read at once (the fill: English pages, and those of other
   * languages read with them) as `generation`, one commit per page, then publishes it over the
   * head it replaces.
   *
   * @returns the published head
   */
  async writeGeneration(
    generation: number,
    byLang: ReadonlyMap<Lang, readonly (readonly IndexEntry[])[]>,
    completedAt: number,
  ): Promise<AchievementsHead> {
    for (const [lang, pages] of byLang) {
      for (const [page, entries] of pages.entries()) {
        const result = await this.addPage(this.#kv.atomic(), generation, lang, page, entries)
          .commit();
        if (!result.ok) throw new Error(`Achievement catalogue page ${page} was not written`);
      }
    }
    const replaced = await this.head();
    const head: AchievementsHead = {
      generation,
      completedAt,
      count: (byLang.get("en") ?? []).reduce((sum, page) => sum + page.length, 0),
      // English first, always (the head's rule), then the others in GW2's order.
      langs: LANGUAGES.filter((lang) => lang === "en" || byLang.has(lang)),
      ...(replaced === undefined ? {} : { previous: replaced.generation }),
    };
    await this.publish(this.#kv.atomic(), head).commit();
    return head;
  }

  /** Every entry of `generation`, by language, in page order. */
  async load(generation: number): Promise<Map<Lang, IndexEntry[]>> {
    const out = new Map<Lang, IndexEntry[]>();
    for await (const entry of this.#generations.list(generation)) {
      const lang = LANGUAGES.find((known) => known === entry.key.at(-3));
      if (lang === undefined) continue;
      const list = out.get(lang) ?? [];
      list.push(...readChunk(entry.value));
      out.set(lang, list);
    }
    return out;
  }

  /** Deletes every generation but `keep`. */
  prune(keep: readonly number[]): Promise<void> {
    return this.#generations.prune(keep);
  }

  /** Deletes generation `generation` alone. */
  deleteGeneration(generation: number): Promise<void> {
    return this.#generations.deleteGeneration(generation);
  }
}
