/**
 * Headless Chromium for the view tests, driven over the Chrome DevTools Protocol with Deno's own
 * WebSocket: launch (Debian's `chromium-headless-shell` or `chromium`), one page, and the few
 * commands the tests need (navigate, evaluate, bindings, the accessibility tree, mouse clicks,
 * screenshots). Every wait is bounded and fails with what it waited for; closing ends the
 * process, the socket and the stderr reader, so the sanitizers stay on.
 *
 * @module
 */

/**
 * Where Debian (and most distributions) install Chromium; the first that exists is used.
 * `.ci/run` checks the same paths before it installs one.
 */
const CANDIDATES = [
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

/** How long one wait may take before the test fails (a cold browser start is the slowest). */
export const WAIT_MS = 15_000;

/** The Chromium binary to drive, or `undefined` when none is installed. */
export async function findChromium(): Promise<string | undefined> {
  for (const path of CANDIDATES) {
    try {
      if ((await Deno.stat(path)).isFile) return path;
    } catch {
      // not installed there
    }
  }
  return undefined;
}

type Json = Record<string, unknown>;
type Listener = (params: Json, sessionId: string | undefined) => void;

/**
 * Resolves with what `register` delivers (or rejects with what it fails with), or rejects after
 * `ms` naming `what`. `register` may return a cleanup, run once the wait is over.
 */
export function within<T>(
  ms: number,
  what: string,
  register: (
    resolve: (value: T) => void,
    reject: (error: Error) => void,
  ) => (() => void) | void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let cleanup: (() => void) | void = undefined;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      cleanup?.();
      outcome();
    };
    const timer = setTimeout(
      () => settle(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`))),
      ms,
    );
    cleanup = register(
      (value) => settle(() => resolve(value)),
      (error) => settle(() => reject(error)),
    );
    if (settled) cleanup?.();
  });
}

/** One DevTools connection (the browser endpoint; page sessions are multiplexed on it). */
class Connection {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, { resolve(value: Json): void; reject(e: Error): void }>();
  readonly #listeners = new Map<string, Set<Listener>>();
  readonly #closed: Promise<void>;
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    this.#closed = new Promise((resolve) =>
      socket.addEventListener("close", () => {
        for (const waiting of this.#pending.values()) waiting.reject(new Error("socket closed"));
        this.#pending.clear();
        resolve();
      })
    );
    socket.addEventListener("message", (event) => this.#receive(String(event.data)));
  }

  static async open(url: string): Promise<Connection> {
    const socket = new WebSocket(url);
    try {
      await within<void>(WAIT_MS, "the DevTools socket to open", (resolve, reject) => {
        socket.addEventListener("open", () => resolve());
        socket.addEventListener("error", () => reject(new Error("the DevTools socket failed")));
      });
    } catch (error) {
      socket.close();
      throw error;
    }
    return new Connection(socket);
  }

  #receive(text: string): void {
    const message = JSON.parse(text) as {
      id?: number;
      result?: Json;
      error?: { message: string };
      method?: string;
      params?: Json;
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const waiting = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    if (message.method === undefined) return;
    for (const listener of this.#listeners.get(message.method) ?? []) {
      listener(message.params ?? {}, message.sessionId);
    }
  }

  send(method: string, params: Json = {}, sessionId?: string): Promise<Json> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#socket.send(
        JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }),
      );
    });
  }

  on(method: string, listener: Listener): () => void {
    let set = this.#listeners.get(method);
    if (set === undefined) this.#listeners.set(method, set = new Set());
    set.add(listener);
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.close();
    await this.#closed;
  }
}

/** A node of the accessibility tree, as the tests read it. */
export interface AxNode {
  readonly role: string;
  readonly name: string;
  readonly backendDOMNodeId?: number;
}

/** One browser tab. */
export class Page {
  readonly #connection: Connection;
  readonly #session: string;
  /** Uncaught exceptions and console errors of the page and its frames, as text. */
  readonly errors: string[] = [];

  constructor(connection: Connection, session: string) {
    this.#connection = connection;
    this.#session = session;
    connection.on("Runtime.exceptionThrown", (params, session) => {
      if (session !== this.#session) return;
      const details = params.exceptionDetails as {
        text?: string;
        exception?: { description?: string };
      };
      this.errors.push(details.exception?.description ?? details.text ?? "exception");
    });
    connection.on("Log.entryAdded", (params, session) => {
      if (session !== this.#session) return;
      const entry = params.entry as { level: string; text: string };
      if (entry.level === "error") this.errors.push(entry.text);
    });
  }

  /** Sends a command to this page's session. */
  send(method: string, params: Json = {}): Promise<Json> {
    return this.#connection.send(method, params, this.#session);
  }

  /** Calls `listener` with the params of each `method` event of this page. */
  on(method: string, listener: (params: Json) => void): () => void {
    return this.#connection.on(method, (params, session) => {
      if (session === this.#session) listener(params);
    });
  }

  /** Sets the viewport size (CSS pixels, device scale 1 unless given). */
  async viewport(width: number, height: number, scale = 1): Promise<void> {
    await this.send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: scale,
      mobile: false,
    });
  }

  /** Navigates and waits for the load event. */
  async navigate(url: string): Promise<void> {
    const loaded = within<void>(WAIT_MS, `the load of ${url.slice(0, 40)}`, (resolve) => {
      return this.on("Page.loadEventFired", () => resolve());
    });
    const answer = await this.send("Page.navigate", { url });
    if (typeof answer.errorText === "string") {
      throw new Error(`navigation failed: ${answer.errorText}`);
    }
    await loaded;
  }

  /** Evaluates `expression` in the page's main frame and returns its value. */
  async evaluate(expression: string): Promise<unknown> {
    const answer = await this.send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    });
    const details = answer.exceptionDetails as {
      text?: string;
      exception?: { description?: string };
    } | undefined;
    if (details !== undefined) {
      throw new Error(`evaluate failed: ${details.exception?.description ?? details.text}`);
    }
    return (answer.result as { value?: unknown }).value;
  }

  /** Exposes `window[name](payload)` to the page; each call reaches `listener`. */
  async bind(name: string, listener: (payload: string) => void): Promise<void> {
    this.on("Runtime.bindingCalled", (params) => {
      if (params.name === name) listener(String(params.payload));
    });
    await this.send("Runtime.addBinding", { name });
  }

  /** The ids of the page's child frames, in document order. */
  async childFrames(): Promise<string[]> {
    const { frameTree } = await this.send("Page.getFrameTree") as {
      frameTree: { childFrames?: { frame: { id: string } }[] };
    };
    return (frameTree.childFrames ?? []).map((child) => child.frame.id);
  }

  /** The accessibility tree of a frame: what assistive technology (and a user) gets. */
  async accessibility(frameId: string): Promise<AxNode[]> {
    const { nodes } = await this.send("Accessibility.getFullAXTree", { frameId }) as {
      nodes: {
        ignored?: boolean;
        role?: { value?: string };
        name?: { value?: string };
        backendDOMNodeId?: number;
      }[];
    };
    return nodes.filter((node) => !node.ignored).map((node) => ({
      role: node.role?.value ?? "",
      name: node.name?.value ?? "",
      ...(node.backendDOMNodeId === undefined ? {} : { backendDOMNodeId: node.backendDOMNodeId }),
    }));
  }

  /** Clicks the middle of a node (by its backend id), as a mouse would. */
  async click(backendNodeId: number): Promise<void> {
    await this.send("DOM.scrollIntoViewIfNeeded", { backendNodeId });
    const { model } = await this.send("DOM.getBoxModel", { backendNodeId }) as {
      model: { content: number[] };
    };
    const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.content;
    const x = (x1 + x3) / 2;
    const y = (y1 + y3) / 2;
    for (const type of ["mousePressed", "mouseReleased"]) {
      await this.send("Input.dispatchMouseEvent", { type, x, y, button: "left", clickCount: 1 });
    }
  }

  /** A PNG of the given page area. */
  async screenshot(
    clip: { x: number; y: number; width: number; height: number },
  ): Promise<Uint8Array> {
    const { data } = await this.send("Page.captureScreenshot", {
      format: "png",
      clip: { ...clip, scale: 1 },
      captureBeyondViewport: true,
    });
    return Uint8Array.from(atob(String(data)), (char) => char.charCodeAt(0));
  }
}

/** A running headless Chromium. */
export class Browser implements AsyncDisposable {
  readonly #process: Deno.ChildProcess;
  readonly #connection: Connection;
  readonly #profile: string;
  readonly #drained: Promise<void>;

  private constructor(
    process: Deno.ChildProcess,
    connection: Connection,
    profile: string,
    drained: Promise<void>,
  ) {
    this.#process = process;
    this.#connection = connection;
    this.#profile = profile;
    this.#drained = drained;
  }

  /** Starts Chromium at `path` with a fresh profile and connects to it. */
  static async launch(path: string): Promise<Browser> {
    const profile = await Deno.makeTempDir({ prefix: "priory-chromium-" });
    const process = new Deno.Command(path, {
      args: [
        "--headless",
        "--no-sandbox", // CI runs as root, where Chromium's sandbox refuses to start
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-extensions",
        "--hide-scrollbars",
        "--mute-audio",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const lines = process.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    let endpoint: string | undefined;
    try {
      const started = within<void>(WAIT_MS, "Chromium's DevTools endpoint", (resolve) => {
        (async () => {
          while (endpoint === undefined) {
            const { value, done } = await lines.read();
            if (done) break;
            seen += value;
            endpoint = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
          }
          resolve();
        })();
      });
      await started;
      if (endpoint === undefined) throw new Error(`Chromium did not start: ${seen.slice(-500)}`);
    } catch (error) {
      process.kill("SIGKILL");
      await lines.cancel();
      await process.status;
      await Deno.remove(profile, { recursive: true });
      throw error;
    }
    // Keep reading its log, so a full pipe never blocks the browser.
    const drained = (async () => {
      while (!(await lines.read()).done) { /* discard */ }
    })();
    try {
      return new Browser(process, await Connection.open(endpoint), profile, drained);
    } catch (error) {
      process.kill("SIGKILL");
      await process.status;
      await drained;
      await Deno.remove(profile, { recursive: true });
      throw error;
    }
  }

  /** A new tab, attached, with the domains the tests use enabled. */
  async newPage(): Promise<Page> {
    const { targetId } = await this.#connection.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.#connection.send("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    const page = new Page(this.#connection, String(sessionId));
    await Promise.all([
      page.send("Page.enable"),
      page.send("Runtime.enable"),
      page.send("Log.enable"),
      page.send("DOM.enable"),
      page.send("Accessibility.enable"),
    ]);
    return page;
  }

  /** Closes the browser, its socket and its log, and removes its profile. */
  async close(): Promise<void> {
    try {
      await within<void>(5_000, "Chromium to close", (resolve) => {
        this.#connection.send("Browser.close").then(() => resolve(), () => resolve());
      });
    } catch {
      // it will be killed below
    }
    await this.#connection.close();
    try {
      this.#process.kill("SIGKILL");
    } catch {
      // already gone
    }
    await this.#process.status;
    await this.#drained;
    await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * How a browser test runs here: skipped (saying so in its name) when no Chromium is installed,
 * unless `PRIORY_REQUIRE_BROWSER=1` (set by `.ci/run`) makes a missing Chromium a failure.
 */
export interface BrowserGate {
  /** Whether the tests are skipped. */
  readonly skipped: boolean;
  /** Appended to each test's name: why it is skipped, or nothing. */
  readonly suffix: string;
  /** Launches Chromium, or fails saying how to install it. */
  launch(): Promise<Browser>;
}

/**
 * The gate of this machine (reads `PRIORY_REQUIRE_BROWSER`).
 *
 * @example
 * ```ts
 * const browser = await browserGate();
 * Deno.test({ name: `renders${browser.suffix}`, ignore: browser.skipped, async fn() { … } });
 * ```
 */
export async function browserGate(): Promise<BrowserGate> {
  const chromium = await findChromium();
  const required = Deno.env.get("PRIORY_REQUIRE_BROWSER") === "1";
  const skipped = chromium === undefined && !required;
  return {
    skipped,
    suffix: skipped
      ? " (SKIPPED: no Chromium found; apt-get install chromium-headless-shell, or set PRIORY_REQUIRE_BROWSER=1 to fail instead)"
      : "",
    launch: async () => {
      if (chromium === undefined) {
        throw new Error(
          "PRIORY_REQUIRE_BROWSER=1 but no Chromium is installed: apt-get install chromium-headless-shell",
        );
      }
      return await Browser.launch(chromium);
    },
  };
}
