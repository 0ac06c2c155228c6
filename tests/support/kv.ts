/**
 * Deno KV for tests: a private in-memory database per test, or a temporary file when a test
 * needs persistence across handles or processes.
 *
 * @module
 */

/** A fresh in-memory KV; close it (or declare it with `using`) before the test ends. */
export function openMemoryKv(): Promise<Deno.Kv> {
  return Deno.openKv(":memory:");
}

/** A temporary directory holding a KV file path; removed on dispose. */
export interface TempKvFile extends AsyncDisposable {
  /** Path of the SQLite file to pass to `Deno.openKv`. */
  readonly path: string;
}

/** Creates a temporary directory for a KV file; use with `await using`. */
export async function tempKvFile(): Promise<TempKvFile> {
  const dir = await Deno.makeTempDir({ prefix: "priory-kv-" });
  return {
    path: `${dir}/kv.sqlite3`,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * `kv` with the named operations stalled: they never settle, like a database that stopped
 * answering. `commit` stalls the commit of every atomic operation.
 */
export function stallingKv(
  kv: Deno.Kv,
  stalled: readonly ("get" | "getMany" | "delete" | "commit")[],
): Deno.Kv {
  const never = () => new Promise<never>(() => {});
  return new Proxy(kv, {
    get(target, property) {
      if (property === "atomic" && stalled.includes("commit")) {
        return () => {
          const op = target.atomic();
          op.commit = never;
          return op;
        };
      }
      if (typeof property === "string" && stalled.some((name) => name === property)) return never;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * `kv` whose every atomic commit first awaits `before(n)` (`n`: 1 for the first commit made
 * through it): to count commits, pause one, or make one fail like a process killed there (throw).
 */
export function interceptedCommits(
  kv: Deno.Kv,
  before: (n: number) => void | Promise<void>,
): Deno.Kv {
  let commits = 0;
  return new Proxy(kv, {
    get(target, property) {
      if (property === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = async () => {
            await before(++commits);
            return await commit();
          };
          return op;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
