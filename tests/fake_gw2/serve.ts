/**
 * The fake listening on 127.0.0.1 (port 0 by default, so tests never collide), with the
 * `/__control/…` route beside the API. `close()` settles pending hangs and latency (their
 * connections are dropped, as when a real server goes away) and stops listening.
 *
 * @module
 */

import { controlRoute, isControlPath } from "./control_route.ts";
import { type FakeGw2, FakeGw2Instance, type FakeGw2Options } from "./fake.ts";
import { FakeClosedError } from "./waits.ts";

/** A fake listening on 127.0.0.1. */
export interface RunningFakeGw2 extends FakeGw2, AsyncDisposable {
  /** Base URL to use as GW2_API_BASE, e.g. "http://127.0.0.1:41234" (no trailing slash). */
  readonly url: string;
  /** Stops listening and settles every pending (e.g. hanging) response. */
  close(): Promise<void>;
}

/** Options of a listening fake. */
export interface StartFakeGw2Options extends FakeGw2Options {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Another fake served on the same port for the paths it `handles` (the fake gw2.me). */
  readonly beside?: {
    handles(pathname: string): boolean;
    fetch(request: Request): Promise<Response>;
  };
}

/** Starts a fake on 127.0.0.1; close it (or `await using` it) before the test ends. */
export function startFakeGw2(options: StartFakeGw2Options = {}): Promise<RunningFakeGw2> {
  const fake = new FakeGw2Instance(options);
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    onListen: () => {},
    // Reached only when the client went away mid-wait; nobody is left to read an answer.
    onError: () => new Response(null, { status: 500 }),
  }, async (request) => {
    const pathname = new URL(request.url).pathname;
    if (isControlPath(pathname)) return await controlRoute(request, fake);
    if (options.beside?.handles(pathname)) return await options.beside.fetch(request);
    try {
      return await fake.fetch(request);
    } catch (error) {
      if (error instanceof FakeClosedError) return droppedConnection();
      throw error;
    }
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      fake.close();
      await server.shutdown();
    })();
    return closing;
  };
  return Promise.resolve({
    url: `http://127.0.0.1:${server.addr.port}`,
    fetch: fake.fetch,
    control: fake.control,
    world: fake.world,
    close,
    [Symbol.asyncDispose]: close,
  });
}

/** A response whose body fails at once: the client sees the connection drop. */
function droppedConnection(): Response {
  return new Response(
    new ReadableStream({
      start(controller) {
        controller.error(new FakeClosedError());
      },
    }),
  );
}
