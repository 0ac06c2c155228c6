/**
 * The item-name index: the name -> id lookup behind `priory_item_search`, in every GW2 language,
 * and the names of ids in a language for every tool that names things. Names live in Deno KV
 * (`name_store.ts`), so they survive restarts and every instance shares them; each instance
 * searches an in-memory copy (`name_table.ts`), loaded at startup and kept current by one
 * small KV read per search: when another instance (or the catalogue crawl) has written since,
 * only the buckets that changed are re-read.
 *
 * At full scale (5 x 75,000 names) loading and packing are seconds of CPU: both run in slices
 * between requests (the `pacer`, `src/async/slices.ts`), one piece of work at a time, and a
 * search meanwhile answers from what is loaded (`complete` false until every language is in).
 *
 * Fed two ways, each write one language's:
 * - **write-through**: the GW2 client hands every item (and item name in another language) it
 *   fetches from upstream to {@linkcode NameIndex.record} (wired in `main.ts`), best effort;
 * - **bulk**: the catalogue crawl writes pages with {@linkcode NameIndex.putMany} and, after a
 *   full pass over every language, calls {@linkcode NameIndex.markCatalogueComplete}.
 *
 * "Complete" is earned by a pass and expires with it: the index reports complete only while the
 * last pass finished less than {@linkcode CATALOGUE_COMPLETE_FOR_MS} ago (the crawl repeats
 * daily, so a week of missed passes), as the recipe catalogue stops answering lookups after the
 * same time. A game release adds items; a crawl stopped for good must not keep saying that a
 * miss is a real miss.
 *
 * @module
 */

import { type Clock, settlesWithin } from "../async/clock.ts";
import { type Pacer, runInSlices, UNSLICED } from "../async/slices.ts";
import { type Lang, LANGUAGES } from "../gw2/types.ts";
import { DEFAULT_KV_TIMEOUT, type KvTimeout, withKvTimeout } from "../kv/timeout.ts";
import { describeError, type Logger } from "../log.ts";
import {
  NameStore,
  type NameStoreOptions,
  NameStoreWriteError,
  storedForm,
  type StoreRead,
} from "./name_store.ts";
import { type NameEntry, type NameMatch, NameTable } from "./name_table.ts";

export { NameStoreWriteError };
export type { NameEntry, NameMatch };

/**
 * How long a completed catalogue pass keeps the index complete: eight days, a week of the daily
 * re-crawl failing - the bound the recipe catalogue keeps (`MAX_CATALOGUE_AGE_MS`), so both
 * catalogues stop vouching for themselves together.
 */
export const CATALOGUE_COMPLETE_FOR_MS = 8 * 24 * 60 * 60_000;

/** What a search result says about the index, so a miss can be read correctly. */
export interface IndexStatus {
  /** Items indexed (with a name in at least one language). */
  readonly names: number;
  /**
   * True while a pass over the whole catalogue finished less than
   * {@linkcode CATALOGUE_COMPLETE_FOR_MS} ago (then a miss is a real miss).
   */
  readonly complete: boolean;
  /** When the last such pass finished (epoch ms), if one did, expired or not. */
  readonly completedAt?: number;
}

/** The index could not be read at all (no copy in memory yet, and KV failing). */
export class NameIndexUnavailableError extends Error {
  constructor(cause: unknown) {
    super("Cannot search item names: the name index could not be read", { cause });
    this.name = "NameIndexUnavailableError";
  }
}

/**
 * Options of {@linkcode NameIndex}: the store's (the KV every instance shares, the namespace -
 * pass the upstream base URL - and a clock for the backoff of contended writes) and a logger.
 */
export interface NameIndexOptions extends NameStoreOptions {
  readonly log: Logger;
  /**
   * How long a search waits for a refresh of a copy it already holds before answering from
   * that copy. A load or refresh may run {@linkcode SYNC_BOUNDS} times as long (it is many
   * reads) before it is given up. @default {@linkcode DEFAULT_KV_TIMEOUT}
   */
  readonly timeout?: KvTimeout;
  /** How long a completed pass keeps the index complete. @default CATALOGUE_COMPLETE_FOR_MS */
  readonly completeForMs?: number;
  /**
   * How loading and packing the names are paced: in slices between requests in production
   * (`slicePacer`, `src/async/slices.ts`), at a full scale of seconds of CPU. @default
   * {@linkcode UNSLICED}: each runs to its end within the call that starts it.
   */
  readonly pacer?: Pacer;
  /**
   * How long after a load begins searches wait for it to end before answering from what is
   * loaded (a small index loads within it; the full five languages take seconds).
   * @default {@linkcode LOAD_WAIT_MS}
   */
  readonly loadWaitMs?: number;
}

/**
 * The wait of {@linkcode NameIndexOptions.loadWaitMs}: a few hundred milliseconds, so the first
 * search of a restart never queues behind seconds of loading, and one of a small index sees it
 * whole.
 */
export const LOAD_WAIT_MS = 200;

/**
 * A load or refresh is many KV reads (a full load of 75,000 names is ~150), so it is given this
 * many single-operation bounds before it is abandoned and the next search tries again.
 */
export const SYNC_BOUNDS = 15;

/** The item-name index of one instance over the shared KV. */
export class NameIndex {
  readonly #store: NameStore;
  readonly #log: Logger;
  readonly #timeout: KvTimeout;
  readonly #clock: Clock;
  readonly #completeForMs: number;
  readonly #pacer: Pacer;
  /** Why the last load or refresh failed, for the unavailable error. */
  #failure: unknown;
  #table: NameTable | undefined;
  /** True once every language has been loaded from the store (then refreshes take over). */
  #loaded = false;
  /** The load running, and its first step (the table exists, or the load failed before). */
  #loading: { readonly done: Promise<void>; readonly begun: Promise<void> } | undefined;
  /** When the running load began (its table existed), and how long searches wait for it. */
  #loadBegunAt = 0;
  readonly #loadWaitMs: number;
  /** Languages loaded: only these are packed (a pack before its load would be replaced). */
  readonly #loadedLanguages = new Set<Lang>();
  /** The tail of the table's sliced work (loads, packs), run one at a time. */
  #work: Promise<void> = Promise.resolve();
  #versions = new Map<Lang, Map<number, number>>();
  #stamp: string | null = null;
  #completedAt: number | undefined;
  #syncing: Promise<void> | undefined;
  /** The tail of this instance's writes, run one at a time. */
  #writes: Promise<void> = Promise.resolve();
  /** Write-through entries waiting for the next commit, per language, and that commit. */
  #waiting = new Map<Lang, NameEntry[]>();
  #next: Promise<void> | undefined;

  /** @param options the shared KV, the namespace, a logger and a clock */
  constructor(options: NameIndexOptions) {
    this.#store = new NameStore(options);
    this.#log = options.log;
    this.#timeout = options.timeout ?? DEFAULT_KV_TIMEOUT;
    this.#clock = options.clock;
    this.#completeForMs = options.completeForMs ?? CATALOGUE_COMPLETE_FOR_MS;
    this.#pacer = options.pacer ?? UNSLICED;
    this.#loadWaitMs = options.loadWaitMs ?? LOAD_WAIT_MS;
  }

  /**
   * The best `limit` matches for `query` over the names in every language (ranked exact >
   * prefix > word > fuzzy; see `name_table.ts`), `prefer` first among equals, each with the
   * language it matched in; and the index's status.
   *
   * @throws {NameIndexUnavailableError} when the index has never loaded and KV fails.
   */
  async search(
    query: string,
    limit: number,
    prefer?: Lang,
  ): Promise<{ matches: NameMatch[]; status: IndexStatus }> {
    const table = await this.#current();
    return { matches: table.search(query, limit, prefer), status: this.#status(table) };
  }

  /**
   * The entry of `id` in `lang` if indexed, and the index's status.
   *
   * @throws {NameIndexUnavailableError} when the index has never loaded and KV fails.
   */
  async lookup(
    id: number,
    lang: Lang = "en",
  ): Promise<{ entry: NameEntry | undefined; status: IndexStatus }> {
    const table = await this.#current();
    return { entry: table.get(id, lang), status: this.#status(table) };
  }

  /**
   * The names in `lang` of those of `ids` indexed in it: no KV read beyond the refresh a search
   * makes, and none at all when that refresh is slow (the copy held answers).
   *
   * @throws {NameIndexUnavailableError} when the index has never loaded and KV fails.
   */
  async namesOf(ids: Iterable<number>, lang: Lang): Promise<Map<number, string>> {
    const table = await this.#current();
    const names = new Map<number, string>();
    for (const id of ids) {
      const name = table.nameOf(id, lang);
      if (name !== undefined) names.set(id, name);
    }
    return names;
  }

  /**
   * The index's status (names held, catalogue completeness), current as of this call.
   *
   * @throws {NameIndexUnavailableError} when the index has never loaded and KV fails.
   */
  async status(): Promise<IndexStatus> {
    return this.#status(await this.#current());
  }

  /**
   * Loads the in-memory copy now and resolves once every language is in (`main.ts` calls it at
   * startup without awaiting). Searches meanwhile answer from what is loaded, saying the index
   * is not complete. A failure is logged; the next search retries.
   */
  async warm(): Promise<void> {
    try {
      await this.#current();
      await this.#loading?.done;
      if (!this.#loaded) throw new NameIndexUnavailableError(this.#failure);
    } catch (error) {
      this.#log.warn("name index warm-up failed", { error: describeError(error) });
    }
  }

  /**
   * Resolves once no load runs and no sliced work (a load's languages, packs) waits: when a burst
   * of the index's CPU and garbage is over (`main.ts` collects garbage only then).
   */
  async quiet(): Promise<void> {
    for (;;) {
      const work = this.#work;
      const loading = this.#loading;
      await loading?.done;
      await work;
      if (work === this.#work && this.#loading === undefined) return;
    }
  }

  /**
   * Write-through: indexes items (their names in `lang`) just read from upstream. Items whose
   * name, rarity and type are already indexed cost nothing; the rest join the next commit (this
   * instance's writes go one at a time, and calls arriving meanwhile share one commit). Best
   * effort: a failure is logged, never thrown, so it cannot fail the read that fed it. Only the
   * four indexed fields of the records are kept.
   */
  record(items: readonly NameEntry[], lang: Lang = "en"): Promise<void> {
    const table = this.#table;
    const stored = items.map(storedForm);
    const fresh = table === undefined
      ? stored
      : stored.filter((entry) => table.differs(entry, lang));
    if (fresh.length === 0) return Promise.resolve();
    const waiting = this.#waiting.get(lang);
    if (waiting === undefined) this.#waiting.set(lang, fresh);
    else waiting.push(...fresh);
    this.#next ??= this.#serial(async () => {
      const batches = this.#waiting;
      this.#waiting = new Map();
      this.#next = undefined;
      for (const [language, batch] of batches) {
        try {
          await this.#store.merge(batch, language, this.#known(language));
          this.#table?.stage(batch, language);
        } catch (error) {
          this.#log.warn("name index write-through failed", {
            items: batch.length,
            lang: language,
            error: describeError(error),
          });
        }
      }
      // Packing is background work: the read that fed these names does not wait for it.
      void this.#packDue();
    });
    return this.#next;
  }

  /**
   * Bulk write for the catalogue crawl: merges `entries` of `lang` (any number; split into
   * commits within KV's limits) and returns how many changed the index. Unchanged entries are
   * not rewritten, so a daily re-crawl costs reads only.
   *
   * @throws {NameStoreWriteError} when a commit keeps failing; the entries of earlier commits
   * are kept, so the crawl can retry the page.
   */
  async putMany(entries: readonly NameEntry[], lang: Lang = "en"): Promise<number> {
    const stored = entries.map(storedForm);
    const changed = await this.#serial(async () => {
      const changed = await this.#store.merge(stored, lang, this.#known(lang));
      this.#table?.stage(stored, lang);
      return changed;
    });
    // The crawl waits for a due pack (in slices), so its writes never outrun the packing.
    await this.#packDue();
    return changed;
  }

  /** Changed names this copy holds beside its packed ones, not yet packed (0 before a load). */
  get pending(): number {
    return this.#table?.pending ?? 0;
  }

  /**
   * Packs `lang`'s recent changes into the compact store now (after the writes queued before
   * it): the crawl calls it when a language's last page is in. Until then changes wait beside
   * the packed names, as objects every search scans, up to a limit.
   */
  async settle(lang: Lang): Promise<void> {
    // After the writes queued before it; the pack itself runs in slices, off the write queue.
    await this.#serial(() => Promise.resolve());
    const table = this.#table;
    if (table === undefined || !this.#loadedLanguages.has(lang)) return;
    await this.#sliced(() => table.packSteps(lang));
  }

  /**
   * Marks the catalogue complete: every item name has been written by a full pass that finished
   * at `at`. Search results then report `complete: true` on every instance, until
   * {@linkcode CATALOGUE_COMPLETE_FOR_MS} after `at` unless a later pass marks it again.
   *
   * @throws {NameStoreWriteError} when the commit keeps failing.
   */
  markCatalogueComplete(at: number): Promise<void> {
    return this.#serial(async () => {
      await this.#store.markCatalogueComplete(at);
      this.#completedAt = at;
    });
  }

  /**
   * Runs this instance's writes one at a time: they would only contend with each other on the
   * manifest. Other instances' writes are handled by the store's check-and-retry.
   */
  #serial<T>(write: () => Promise<T>): Promise<T> {
    const run = this.#writes.then(write);
    this.#writes = run.then(() => undefined, () => undefined);
    return run;
  }

  /**
   * The table's sliced work, one piece at a time (a pack must not run beside the load or
   * another pack of its language): `steps` is made when its turn comes.
   */
  #sliced<T>(steps: () => Generator<void, T, undefined>): Promise<T> {
    const run = this.#work.then(() => runInSlices(steps(), this.#pacer));
    this.#work = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Packs every loaded language whose changes have passed their limit (sliced). */
  #packDue(): Promise<void> {
    const table = this.#table;
    if (table === undefined) return Promise.resolve();
    const loaded = this.#loadedLanguages;
    return this.#sliced(function* () {
      for (const lang of table.packDue()) if (loaded.has(lang)) yield* table.packSteps(lang);
    });
  }

  /**
   * The in-memory table. Before the first load is over: the table as loaded so far, once the
   * load has begun (a store that cannot be read at all is an error) - a search never waits for
   * the whole index. After: refreshed first (one sync at a time, shared by callers), waited for
   * only up to the KV bound, after which the search answers from the copy held (a stalled KV
   * must not cost the call its deadline) while the refresh goes on for the next caller.
   */
  async #current(): Promise<NameTable> {
    if (!this.#loaded) {
      const loading = this.#loading ??= this.#load();
      if (this.#table === undefined) await loading.begun;
      // A small index is loaded within the wait; a large one answers from what is in by then.
      const left = this.#loadBegunAt + this.#loadWaitMs - this.#clock.now();
      if (left > 0) await settlesWithin(loading.done, left, this.#clock);
      if (this.#table === undefined) throw new NameIndexUnavailableError(this.#failure);
      return this.#table;
    }
    const held = this.#table!;
    const syncing = this.#syncing ??= this.#sync().finally(() => this.#syncing = undefined);
    try {
      await withKvTimeout(this.#timeout, () => syncing);
    } catch {
      this.#log.warn("name index refresh slow; searching the copy held", {
        ms: this.#timeout.ms,
      });
    }
    return this.#table ?? held;
  }

  /**
   * The first load: the store's head, then each language's names (English first), each folded
   * and packed in slices and put in place whole, so searches meanwhile see every language
   * loaded so far. Each KV read is given {@linkcode SYNC_BOUNDS} single-operation bounds; a load
   * that fails keeps what it loaded, and the next search starts another.
   */
  #load(): { readonly done: Promise<void>; readonly begun: Promise<void> } {
    const begun = Promise.withResolvers<void>();
    const bound = { ...this.#timeout, ms: this.#timeout.ms * SYNC_BOUNDS };
    const done = (async () => {
      try {
        const head = await withKvTimeout(bound, () => this.#store.head());
        const table = this.#table ??= new NameTable();
        this.#loadBegunAt = this.#clock.now();
        begun.resolve();
        for (const lang of LANGUAGES) {
          // Names go from each bucket read straight into the language's new pack.
          const loader = table.loader(lang);
          await withKvTimeout(
            bound,
            () => this.#store.readLanguage(lang, (entries) => loader.add(entries), this.#pacer),
          );
          await this.#sliced(() => loader.finish());
          this.#loadedLanguages.add(lang);
        }
        this.#loaded = true;
        this.#apply(head);
        this.#failure = undefined;
        this.#log.info("name index loaded", {
          names: table.size,
          ...Object.fromEntries(LANGUAGES.map((lang) => [lang, table.sizeOf(lang)])),
          ms: Math.round(this.#clock.now() - this.#loadBegunAt),
        });
      } catch (error) {
        this.#failure = error;
        this.#log.warn("name index load failed", { error: describeError(error) });
      } finally {
        this.#loading = undefined;
        begun.resolve();
      }
    })();
    return { done, begun: begun.promise };
  }

  /** Refreshes the loaded table; never throws (the failure is logged and kept). */
  async #sync(): Promise<void> {
    const table = this.#table;
    if (table === undefined) return;
    const bound = { ...this.#timeout, ms: this.#timeout.ms * SYNC_BOUNDS };
    try {
      await withKvTimeout(bound, async (abandoned) => {
        if (await this.#store.stamp() === this.#stamp) return;
        const read = await this.#store.changes(this.#versions);
        // An abandoned refresh must not apply an older read over a newer one.
        if (abandoned.aborted) return;
        for (const [lang, entries] of read.entries) table.stage(entries, lang);
        this.#apply(read);
        void this.#packDue();
      });
      this.#failure = undefined;
    } catch (error) {
      this.#failure = error;
      // A refresh failing is not fatal: search what this instance already holds.
      this.#log.warn("name index refresh failed", { error: describeError(error) });
    }
  }

  /**
   * The versions of `lang`'s buckets this copy holds, for a write of this instance to advance
   * (its next refresh then skips what it wrote itself); none before the first load.
   */
  #known(lang: Lang): Map<number, number> | undefined {
    if (!this.#loaded) return undefined;
    let known = this.#versions.get(lang);
    if (known === undefined) this.#versions.set(lang, known = new Map());
    return known;
  }

  #apply(read: Omit<StoreRead, "entries">): void {
    // A pass finished elsewhere: its last pages came in by refresh, and no more are coming.
    const table = this.#table;
    if (read.completedAt !== this.#completedAt && table !== undefined) {
      void this.#sliced(function* () {
        for (const lang of LANGUAGES) yield* table.packSteps(lang);
      });
    }
    this.#stamp = read.stamp;
    this.#versions = new Map(LANGUAGES.map((lang) => [lang, new Map(read.versions.get(lang))]));
    this.#completedAt = read.completedAt;
  }

  #status(table: NameTable): IndexStatus {
    const completedAt = this.#completedAt;
    if (completedAt === undefined) return { names: table.size, complete: false };
    // Until every language is loaded, a miss may be a name not loaded yet.
    const complete = this.#loaded && this.#clock.now() - completedAt < this.#completeForMs;
    return { names: table.size, complete, completedAt };
  }
}
