/**
 * The achievement catalogue of one instance: the published generation (`store.ts`) held in
 * memory as an {@linkcode AchievementIndex}, loaded on first use and reloaded when the head
 * names a newer generation (re-read at most every {@linkcode HEAD_CHECK_MS}). A generation
 * older than {@linkcode MAX_CATALOGUE_AGE_MS} is not used (the daily crawl has failed for a
 * week: the game may have added achievements since).
 *
 * **Filled on demand.** The crawl (`src/background/crawl.ts`, after the items) reads every page
 * in every language at a tenth of the budget; a call that needs the catalogue before any is
 * published calls {@linkcode AchievementCatalogue.fill}, which reads the pages at once
 * ({@linkcode FILL_CONCURRENCY} in flight a language: ~28 requests a language for the real API's
 * ~5,600 records), publishes them as a generation for every instance and holds it. An `item`
 * lookup needs the English pages alone; a name `query` needs every language's names (the contract
 * matches a name in any of the five), so it fills them all - once a deployment, until the crawl's
 * generation replaces it - and refills an English-only one. A language that fails leaves the
 * others usable. One fill at a time per instance; later callers join it.
 *
 * @module
 */

import type { Clock } from "../async/clock.ts";
import { CollectionRead } from "../gw2/paging.ts";
import type { Achievement } from "../gw2/schemas_achievements.ts";
import { type Lang, LANGUAGES, type Page } from "../gw2/types.ts";
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

/** One `/v2/achievements?page=&page_size=&lang=` read, under the caller's deadline. */
export type AchievementPageReader = (
  page: number,
  pageSize: number,
  lang: Lang,
) => Promise<Page<Achievement>>;

/** Options of {@linkcode AchievementCatalogue}. */
export interface AchievementCatalogueOptions {
  readonly store: AchievementStore;
  readonly clock: Clock;
  readonly log: Logger;
  /**
   * The pages a fill reads when its caller gives none: the interactive client's, under the
   * calling tool's deadline (`main.ts` wires it).
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
  #filling: { readonly langs: readonly Lang[]; readonly done: Promise<Fill> } | undefined;
  #fillPages: ReadonlyMap<Lang, CollectionRead<Achievement>> = new Map();
  /**
   * The languages this instance's last fill read, and the generation it made: a language that
   * failed there is not read again for every lookup (the crawl brings it).
   */
  #tried: { readonly generation: number; readonly langs: readonly Lang[] } | undefined;

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
    return (await this.#filling.done).index;
  }

  /**
   * The usable catalogue, filled first from the pages `read` gives (the wired ones by default)
   * when none is published that holds the names of every one of `langs` (English always);
   * undefined when the fill failed (an English page read failed: the caller says the catalogue
   * is not ready) or there is nothing to read with. A fill that got English but not another
   * language answers with what it got.
   */
  async fill(
    read: AchievementPageReader | undefined = this.#pages,
    langs: readonly Lang[] = ["en"],
  ): Promise<AchievementIndex | undefined> {
    const held = await this.#held.current();
    if (held !== undefined && (holdsAll(held.value, langs) || this.#triedAll(held.head, langs))) {
      return held.value;
    }
    if (read === undefined) return await this.usable();
    const filling = this.#filling;
    if (filling !== undefined) {
      for (const [lang, pages] of this.#fillPages) {
        pages.join((page, pageSize) => read(page, pageSize, lang), FILL_CONCURRENCY);
      }
      const joined = await filling.done;
      // One that read the languages asked answers, even when one of them failed; after one of
      // fewer, look again (another caller may be filling them already).
      if (joined.index === undefined || langs.every((lang) => filling.langs.includes(lang))) {
        return joined.index;
      }
      return await this.fill(read, langs);
    }
    const wanted = LANGUAGES.filter((lang) => lang === "en" || langs.includes(lang));
    const done = this.#fill(read, wanted).finally(() => {
      this.#filling = undefined;
      this.#fillPages = new Map();
    });
    this.#filling = { langs: wanted, done };
    return (await done).index;
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

  /** Whether this instance's fill made `head`'s generation, reading every one of `langs`. */
  #triedAll(head: AchievementsHead, langs: readonly Lang[]): boolean {
    const tried = this.#tried;
    return tried?.generation === head.generation &&
      langs.every((lang) => tried.langs.includes(lang));
  }

  async #load(head: AchievementsHead): Promise<AchievementIndex | undefined> {
    const byLang = await this.#store.load(head.generation);
    const english = byLang.get("en") ?? [];
    if (english.length !== head.count) return undefined;
    byLang.delete("en");
    return new AchievementIndex(english, byLang);
  }

  async #fill(read: AchievementPageReader, langs: readonly Lang[]): Promise<Fill> {
    const started = this.#clock.now();
    try {
      // Another instance may have published one since this one last looked.
      this.#held.refresh();
      const published = await this.#held.current();
      if (published !== undefined && holdsAll(published.value, langs)) {
        return { index: published.value };
      }
      const reads = new Map(langs.map((lang) => {
        const collection = new CollectionRead<Achievement>({
          pageSize: FILL_PAGE_SIZE,
          maxPages: FILL_MAX_PAGES,
          what: "achievement catalogue",
          clock: this.#clock,
        });
        collection.join((page, pageSize) => read(page, pageSize, lang), FILL_CONCURRENCY);
        return [lang, collection] as const;
      }));
      this.#fillPages = reads;
      const english = (await reads.get("en")?.done ?? []).map((page) =>
        englishEntries(page.records)
      );
      const others = new Map<Lang, IndexEntry[][]>();
      for (const [lang, collection] of reads) {
        if (lang === "en") continue;
        try {
          const pages = await collection.done;
          others.set(lang, pages.map((page) => page.records.map(({ id, name }) => ({ id, name }))));
        } catch (error) {
          // English answers; this language's names wait for the next fill or the crawl.
          this.#log.warn("achievement names not filled", { lang, error: describeError(error) });
        }
      }
      const byLang = new Map<Lang, IndexEntry[][]>([["en", english], ...others]);
      const generation = this.#clock.now();
      let head: AchievementsHead = {
        generation,
        completedAt: generation,
        count: english.reduce((sum, page) => sum + page.length, 0),
        langs: [...byLang.keys()],
      };
      try {
        head = await this.#store.writeGeneration(generation, byLang, generation);
      } catch (error) {
        // Still usable here; other instances fill (or crawl) their own.
        this.#log.warn("achievement catalogue not stored", { error: describeError(error) });
      }
      const index = new AchievementIndex(
        english.flat(),
        new Map([...others].map(([lang, pages]) => [lang, pages.flat()])),
      );
      this.#held.hold(head, index);
      this.#tried = { generation: head.generation, langs };
      this.#log.info("achievement catalogue filled", {
        achievements: index.size,
        langs: head.langs.length,
        pages: [...byLang.values()].reduce((sum, pages) => sum + pages.length, 0),
        ms: Math.round(this.#clock.now() - started),
      });
      return { index };
    } catch (error) {
      this.#log.warn("achievement catalogue fill failed", { error: describeError(error) });
      return {};
    }
  }
}

/** A fill's outcome: the catalogue, unless its English pages could not be read. */
interface Fill {
  readonly index?: AchievementIndex;
}

/** Whether `index` holds the names of every one of `langs`. */
function holdsAll(index: AchievementIndex, langs: readonly Lang[]): boolean {
  return langs.every((lang) => index.languages.includes(lang));
}
