/**
 * A test MCP Apps host: a page that embeds a view the way hosts do — a sandboxed iframe
 * (`sandbox="allow-scripts"`, no same origin) loaded from the view's HTML under a Content
 * Security Policy that allows no network origin — and the extension's own host implementation,
 * `AppBridge` from `@modelcontextprotocol/ext-apps`, on the other end of its `postMessage`
 * channel. The bridge runs here in Deno; the page relays the view's messages to it through a
 * DevTools binding, and its messages back with `postMessage`. So what the view says is checked
 * by the official host code (message schemas, the initialize handshake), and the tests read
 * only what a host hears: initialization, sizes, tool calls, log messages.
 *
 * @module
 */

import type {
  CallToolRequest,
  CallToolResult,
  JSONRPCMessage,
  Transport,
} from "@modelcontextprotocol/client";
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { type Page, WAIT_MS, within } from "../support/browser.ts";

/** The policy a host derives from a view that declares no network origin (`csp: {}`). */
export const HOST_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/** The host page: the relay, and functions to load and size the view's frame. */
const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${HOST_CSP}">
<style>html,body{margin:0;background:#ffffff}</style></head>
<body><script>
var frame = null;
window.addEventListener("message", function (event) {
  if (frame && event.source === frame.contentWindow) hostRelay(JSON.stringify(event.data));
});
window.loadView = function (html, width) {
  frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  frame.title = "MCP App view";
  frame.style.cssText = "border:0;display:block;width:" + width + "px;height:80px";
  frame.srcdoc = html;
  document.body.appendChild(frame);
};
window.toView = function (json) { frame.contentWindow.postMessage(JSON.parse(json), "*"); };
window.resizeView = function (height) { frame.style.height = height + "px"; };
</script></body></html>`;

/** The view's messages reach the bridge through the page's relay; the bridge's go back by it. */
class RelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #page: Page;

  constructor(page: Page) {
    this.#page = page;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#page.evaluate(`toView(${JSON.stringify(JSON.stringify(message))})`);
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }

  deliver(payload: string): void {
    this.onmessage?.(JSON.parse(payload) as JSONRPCMessage);
  }
}

/** A size the view reported. */
export interface ViewSize {
  readonly width?: number | undefined;
  readonly height?: number | undefined;
}

/** What the host hears from a loaded view. */
export interface HostedView {
  readonly bridge: AppBridge;
  /** Every size the view reported, in order. */
  readonly sizes: readonly ViewSize[];
  /** Error log messages the view sent (`notifications/message`). */
  readonly errors: readonly string[];
  /** Every `tools/call` the view asked the host for. */
  readonly toolCalls: readonly CallToolRequest["params"][];
  /**
   * Resolves with the first size `accept` takes among those reported from index `from` on
   * (already or later): take `from = sizes.length` before the action whose effect is awaited.
   */
  sizeFrom(from: number, accept: (size: ViewSize) => boolean, what: string): Promise<ViewSize>;
  /** Resolves with the first tool call the view asked for from index `from` on. */
  toolCallFrom(from: number): Promise<CallToolRequest["params"]>;
  /** The frame id of the view, for accessibility queries. */
  frameId(): Promise<string>;
}

/** Options of {@linkcode hostView}. */
export interface HostViewOptions {
  /** The frame's width in CSS pixels. */
  readonly width?: number;
  /** Answers the view's `tools/call` (a real host forwards it to the server). */
  readonly callTool?: (params: CallToolRequest["params"]) => Promise<CallToolResult>;
  /** The host context's `locale` (BCP 47), when the host tells one. */
  readonly locale?: string;
}

/**
 * Loads `html` in the page as a view, connected to an `AppBridge`, and resolves once the view
 * has completed the `ui/initialize` handshake. The frame follows the heights the view reports.
 */
export async function hostView(
  page: Page,
  html: string,
  options: HostViewOptions = {},
): Promise<HostedView> {
  const width = options.width ?? 860;
  const transport = new RelayTransport(page);
  await page.bind("hostRelay", (payload) => transport.deliver(payload));
  await page.navigate(`data:text/html;charset=utf-8,${encodeURIComponent(HOST_PAGE)}`);

  const sizes: ViewSize[] = [];
  const errors: string[] = [];
  const toolCalls: CallToolRequest["params"][] = [];
  const sizeWaiters = new Set<(size: ViewSize) => void>();
  const callWaiters = new Set<(call: CallToolRequest["params"]) => void>();

  const bridge = new AppBridge(null, { name: "priory-test-host", version: "1.0.0" }, {
    serverTools: {},
    logging: {},
  }, {
    hostContext: {
      theme: "light",
      displayMode: "inline",
      availableDisplayModes: ["inline"],
      containerDimensions: { maxHeight: 6000, width },
      platform: "web",
      ...(options.locale === undefined ? {} : { locale: options.locale }),
    },
  });
  bridge.onsizechange = (size) => {
    sizes.push(size);
    if (typeof size.height === "number") {
      page.evaluate(`resizeView(${Math.ceil(size.height)})`).catch(() => {});
    }
    for (const waiter of [...sizeWaiters]) waiter(size);
  };
  const errorWaiters = new Set<(error: Error) => void>();
  bridge.onloggingmessage = (message) => {
    if (message.level !== "error") return;
    errors.push(String(message.data));
    for (const waiter of [...errorWaiters]) waiter(new Error(`the view reported: ${message.data}`));
  };
  /** A wait that fails at once when the view reports an error. */
  const awaitView = <T>(
    what: string,
    register: (resolve: (value: T) => void) => () => void,
  ): Promise<T> =>
    within<T>(WAIT_MS, what, (resolve, reject) => {
      if (errors.length > 0) reject(new Error(`the view reported: ${errors[0]}`));
      errorWaiters.add(reject);
      const cleanup = register(resolve);
      return () => {
        errorWaiters.delete(reject);
        cleanup();
      };
    });
  bridge.oncalltool = async (params) => {
    toolCalls.push(params);
    for (const waiter of [...callWaiters]) waiter(params);
    if (options.callTool === undefined) throw new Error("this host runs no tools");
    return await options.callTool(params);
  };
  const initialized = within<void>(WAIT_MS, "the view's ui/initialize handshake", (resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(transport);
  await page.evaluate(`loadView(${JSON.stringify(html)}, ${width})`);
  await initialized;

  return {
    bridge,
    sizes,
    errors,
    toolCalls,
    sizeFrom(from, accept, what) {
      const seen = sizes.slice(from).find(accept);
      if (seen !== undefined) return Promise.resolve(seen);
      return awaitView<ViewSize>(what, (resolve) => {
        const waiter = (size: ViewSize) => {
          if (accept(size)) resolve(size);
        };
        sizeWaiters.add(waiter);
        return () => {
          sizeWaiters.delete(waiter);
        };
      });
    },
    toolCallFrom(from) {
      const seen = toolCalls[from];
      if (seen !== undefined) return Promise.resolve(seen);
      return awaitView<CallToolRequest["params"]>("a tools/call from the view", (resolve) => {
        callWaiters.add(resolve);
        return () => callWaiters.delete(resolve);
      });
    },
    async frameId() {
      const [frame] = await page.childFrames();
      if (frame === undefined) throw new Error("the host page has no view frame");
      return frame;
    },
  };
}
