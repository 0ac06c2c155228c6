/**
 * The achievement catalogue of one instance: the published generation (`store.ts`) held in
 * memory as an {@linkcode AchievementIndex}, loaded on first use and reloaded when the head
 * names a newer generation (re-read at most every {@linkcode HEAD_CHECK_MS}). A generation
 * older than {@linkcode MAX_CATALOGUE_AGE_MS} is not used (the daily crawl has failed for a
 * week: the game may have added achievements since).
 *
 * **Filled on demand.** The crawl (`src/background/achievements_crawl.ts`) reads every page in
 * every language at a tenth of the budget; a call that needs the catalogue before any is
 * published (`query`, `item`) calls {@linkcode AchievementCatalogue.fill}, which reads the
 * English pages at once ({@linkcode FILL_CONCURRENCY} in flight: ~28 requests for the real
 * API's ~5,600 records), publishes them as a generation for every instance and holds it. One
 * fill at a time per instance; later callers join it.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { CollectionRead } from "../gw2/paging.ts";
import type { Achievement } from "../gw2/schemas_achievements.ts";
import type { Lang, Page } from "../gw2/types.ts";
import { HeldGeneration } from "../kv/held_generation.ts";
import { describeError, type Logger } from "../log.ts";
import { AchievementIndex, type IndexEntry } from "./index.ts";
import { toCatalogue } from "./layout.ts";
import type { AchievementsHead, AchievementStore } from "./store.ts";

/** How often an instance re-reads the head to notice a newer generation. */
export const HEAD_CHECK_MS = 30_000;
/** A catalogue older than this is not used: a week of the daily crawl failing. */
export const MAX_CATALOGUE_AGE_MS = 8 * 24 * 60 * 60_000;
/** Records per page a fill asks for: GW2's maximum. */
export const FILL_PAGE_SIZE = 200;
/** Pages of a fill in flight at once. */
export const FILL_CONCURRENCY = 8;
/** The most pages a fill reads: 20,000 achievements (the real API has ~5,600 in 28 pages). */
export const FILL_MAX_PAGES = 100;

/** One English `/v2/achievements?page=&page_size=` read, under the caller's deadline. */
export type AchievementPageReader = (page: number, pageSize: number) => Promise<Page<Achievement>>;

/** Options of {@linkcode AchievementCatalogue}. */
export interface AchievementCatalogueOptions {
  readonly store: AchievementStore;
  readonly clock: Clock;
  readonly log: Logger;
  /**
   * The English pages a fill reads when its caller gives none: the interactive client's, under
   * the calling tool's deadline (`main.ts` wires it).
   */
  readonly pages?: AchievementPageReader;
}

/** The catalogue's state, for results and logs. */
export interface AchievementCatalogueStatus {
  /** Achievements held (0: none usable). */
  readonly achievements: number;
  /** The languages whose names are held. */
  readonly langs: readonly Lang[];
  readonly completedAt?: number;
}

/** English page entries of `records`: names and what the lookups keep. */
export function englishEntries(records: readonly Achievement[]): IndexEntry[] {
  return records.map((record) => ({
    id: record.id,
    name: record.name,
    record: toCatalogue(record),
  }));
}

/** The in-memory achievement catalogue of one instance over the shared store. */
export class AchievementCatalogue {
  readonly #store: AchievementStore;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #held: HeldGeneration<AchievementsHead, AchievementIndex>;
  readonly #pages: AchievementPageReader | undefined;
  #filling: Promise<AchievementIndex | undefined> | undefined;
  #fillPages: CollectionRead<Achievement> | undefined;

  /** @param options the store, a clock and a logger */
  constructor(options: AchievementCatalogueOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#log = options.log;
    this.#pages = options.pages;
    this.#held = new HeldGeneration({
      clock: options.clock,
      log: options.log,
      what: "achievement catalogue",
      readHead: () => this.#store.head(),
      load: (head) => this.#load(head),
      // A generation reloads when the crawl added its other languages' names.
      holds: (held, next) =>
        held.generation === next.generation && held.langs.length === next.langs.length,
      checkEveryMs: HEAD_CHECK_MS,
      maxAgeMs: MAX_CATALOGUE_AGE_MS,
    });
  }

  /** The usable catalogue, if one is published (after a fill in flight), else undefined. */
  async usable(): Promise<AchievementIndex | undefined> {
    const held = await this.#held.current();
    if (held !== undefined || this.#filling === undefined) return held?.value;
    return await this.#filling;
  }

  /**
   * The usable catalogue, filled first from the English pages `read` gives (the wired ones by
   * default) when none is published; undefined when the fill failed (a page read failed: the
   * caller says the catalogue is not ready) or there is nothing to read with.
   */
  async fill(
    read: AchievementPageReader | undefined = this.#pages,
  ): Promise<AchievementIndex | undefined> {
    const held = await this.#held.current();
    if (held !== undefined) return held.value;
    if (read === undefined) return await this.usable();
    if (this.#filling !== undefined) {
      this.#fillPages?.join(read, FILL_CONCURRENCY);
      return await this.#filling;
    }
    this.#filling = this.#fill(read).finally(() => {
      this.#filling = undefined;
      this.#fillPages = undefined;
    });
    return await this.#filling;
  }

  /** What is held now (no fill). */
  async status(): Promise<AchievementCatalogueStatus> {
    const held = await this.#held.current();
    return held === undefined ? { achievements: 0, langs: [] } : {
      achievements: held.value.size,
      langs: held.value.languages,
      completedAt: held.head.completedAt,
    };
  }

  /** Makes the next lookup re-read the head (this instance's crawl just published one). */
  refresh(): void {
    this.#held.refresh();
  }

  async #load(head: AchievementsHead): Promise<AchievementIndex | undefined> {
    const byLang = await this.#store.load(head.generation);
    const english = byLang.get("en") ?? [];
    if (english.length !== head.count) return undefined;
    byLang.delete("en");
    return new AchievementIndex(english, byLang);
  }

  async #fill(read: AchievementPageReader): Promise<AchievementIndex | undefined> {
    const started = this.#clock.now();
    try {
      // Another instance may have published one since this one last looked.
      this.#held.refresh();
      const published = await this.#held.current();
      if (published !== undefined) return published.value;
      const collection = new CollectionRead<Achievement>({
        pageSize: FILL_PAGE_SIZE,
        maxPages: FILL_MAX_PAGES,
        what: "achievement catalogue",
        clock: this.#clock,
      });
      this.#fillPages = collection;
      collection.join((page, pageSize) => read(page, pageSize), FILL_CONCURRENCY);
      const pages = (await collection.done).map((page) => englishEntries(page.records));
      const generation = this.#clock.now();
      let head: AchievementsHead = {
        generation,
        completedAt: generation,
        count: pages.reduce((sum, page) => sum + page.length, 0),
        langs: ["en"],
      };
      try {
        head = await this.#store.writeGeneration(generation, "en", pages, generation);
      } catch (error) {
        // Still usable here; other instances fill (or crawl) their own.
        this.#log.warn("achievement catalogue not stored", { error: describeError(error) });
      }
      const index = new AchievementIndex(pages.flat(), new Map());
      this.#held.hold(head, index);
      this.#log.info("achievement catalogue filled", {
        achievements: index.size,
        pages: pages.length,
        ms: Math.round(this.#clock.now() - started),
      });
      return index;
    } catch (error) {
      this.#log.warn("achievement catalogue fill failed", { error: describeError(error) });
      return undefined;
    }
  }
}
