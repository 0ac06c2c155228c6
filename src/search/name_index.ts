/**
 * The item-name index: the name -> id lookup behind `priory_item_search`, in every GW2 language,
 * and the names of ids in a language for every tool that names things. Names live in Deno KV
 * (`name_store.ts`), so they survive restarts and every instance shares them; each instance
 * searches an in-memory copy (`name_table.ts`), loaded on first use and kept current by one
 * small KV read per search: when another instance (or the catalogue crawl) has written since,
 * only the buckets that changed are re-read.
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

import type { Clock } from "../async/clock.ts";
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
}

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
  /** Why the last load or refresh failed, for the unavailable error. */
  #failure: unknown;
  #table: NameTable | undefined;
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
   * Loads the in-memory copy now, so the first search does not wait for it (`main.ts` calls it
   * at startup without awaiting). A failure is logged; the next search retries.
   */
  async warm(): Promise<void> {
    try {
      await this.#current();
    } catch (error) {
      this.#log.warn("name index warm-up failed", { error: describeError(error) });
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
          this.#table?.upsert(batch, language);
        } catch (error) {
          this.#log.warn("name index write-through failed", {
            items: batch.length,
            lang: language,
            error: describeError(error),
          });
        }
      }
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
  putMany(entries: readonly NameEntry[], lang: Lang = "en"): Promise<number> {
    const stored = entries.map(storedForm);
    return this.#serial(async () => {
      const changed = await this.#store.merge(stored, lang, this.#known(lang));
      this.#table?.upsert(stored, lang);
      return changed;
    });
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
  settle(lang: Lang): Promise<void> {
    return this.#serial(() => {
      this.#table?.pack(lang);
      return Promise.resolve();
    });
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
   * The in-memory table, loaded or refreshed first (one sync at a time, shared by callers). A
   * first load is waited for; a refresh only up to the KV bound, after which the search answers
   * from the copy held (a stalled KV must not cost the call its deadline) while the refresh
   * goes on for the next caller.
   */
  async #current(): Promise<NameTable> {
    const syncing = this.#syncing ??= this.#sync().finally(() => this.#syncing = undefined);
    const held = this.#table;
    if (held === undefined) {
      await syncing;
      if (this.#table === undefined) throw new NameIndexUnavailableError(this.#failure);
      return this.#table;
    }
    try {
      await withKvTimeout(this.#timeout, () => syncing);
    } catch {
      this.#log.warn("name index refresh slow; searching the copy held", {
        ms: this.#timeout.ms,
      });
    }
    return this.#table ?? held;
  }

  /** Loads or refreshes the table; never throws (the failure is logged and kept). */
  async #sync(): Promise<void> {
    const table = this.#table;
    const bound = { ...this.#timeout, ms: this.#timeout.ms * SYNC_BOUNDS };
    try {
      await withKvTimeout(bound, async (abandoned) => {
        if (table === undefined) {
          const loaded = new NameTable();
          const read = await this.#store.load((lang, entries) => loaded.upsert(entries, lang));
          if (abandoned.aborted) return;
          this.#apply(read);
          this.#table = loaded;
          this.#log.info("name index loaded", {
            names: loaded.size,
            ...Object.fromEntries(LANGUAGES.map((lang) => [lang, loaded.sizeOf(lang)])),
          });
          return;
        }
        if (await this.#store.stamp() === this.#stamp) return;
        const read = await this.#store.changes(this.#versions);
        // An abandoned refresh must not apply an older read over a newer one.
        if (abandoned.aborted) return;
        for (const [lang, entries] of read.entries) table.upsert(entries, lang);
        this.#apply(read);
      });
      this.#failure = undefined;
    } catch (error) {
      this.#failure = error;
      // A refresh failing is not fatal: search what this instance already holds.
      this.#log.warn(table === undefined ? "name index load failed" : "name index refresh failed", {
        error: describeError(error),
      });
    }
  }

  /**
   * The versions of `lang`'s buckets this copy holds, for a write of this instance to advance
   * (its next refresh then skips what it wrote itself); none before the first load.
   */
  #known(lang: Lang): Map<number, number> | undefined {
    if (this.#table === undefined) return undefined;
    let known = this.#versions.get(lang);
    if (known === undefined) this.#versions.set(lang, known = new Map());
    return known;
  }

  #apply(read: StoreRead): void {
    // A pass finished elsewhere: its last pages came in by refresh, and no more are coming.
    if (read.completedAt !== this.#completedAt) this.#table?.pack();
    this.#stamp = read.stamp;
    this.#versions = new Map(LANGUAGES.map((lang) => [lang, new Map(read.versions.get(lang))]));
    this.#completedAt = read.completedAt;
  }

  #status(table: NameTable): IndexStatus {
    const completedAt = this.#completedAt;
    if (completedAt === undefined) return { names: table.size, complete: false };
    const complete = this.#clock.now() - completedAt < this.#completeForMs;
    return { names: table.size, complete, completedAt };
  }
}
