/**
 * The bench's MCP client: raw JSON-RPC POSTs over `fetch`, one request per call, exactly what a
 * stateless Streamable HTTP client sends. The same client speaks to Priory and to the floor, so a
 * ratio between them compares servers, not clients. A 2025-11-25 exchange is answered as an SSE
 * stream (the SDK's stateless legacy leg), a 2026-07-28 one as JSON; both are read to the end.
 *
 * @module
 */

/** The protocol revisions the bench speaks. */
export const PROTOCOLS = ["2025-11-25", "2026-07-28"] as const;
/** One of {@linkcode PROTOCOLS}. */
export type Protocol = typeof PROTOCOLS[number];

/** A JSON-RPC answer: `result` or `error`. */
export interface RpcAnswer {
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string };
}

/** A tool result as MCP returns it. */
export interface ToolResult {
  readonly content?: readonly { readonly type: string; readonly text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** Options of {@linkcode McpWire}. */
export interface McpWireOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  readonly protocol: Protocol;
  /** Sent as `Authorization: Bearer …` (the floor ignores it). */
  readonly token?: string;
  /** Extra headers on every request, e.g. `X-GW2-Key`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A stateless MCP client over raw JSON-RPC POSTs. */
export class McpWire {
  readonly #options: McpWireOptions;
  #nextId = 1;

  /** @param options endpoint, protocol, token and extra headers */
  constructor(options: McpWireOptions) {
    this.#options = options;
  }

  /** Sends one request and reads its answer to the end. */
  async request(method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
    const { url, protocol, token, headers } = this.#options;
    const modern = protocol === "2026-07-28";
    const name = typeof params.name === "string" ? params.name : undefined;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": protocol,
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(modern ? { "mcp-method": method } : {}),
        ...(modern && name !== undefined ? { "mcp-name": name } : {}),
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: this.#nextId++,
        method,
        params: modern ? { ...params, _meta: envelope(protocol) } : params,
      }),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
    }
    return parseAnswer(text, response.headers.get("content-type") ?? "");
  }

  /** Calls a tool; throws on a JSON-RPC error (a tool error comes back as `isError`). */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const answer = await this.request("tools/call", { name, arguments: args });
    if (answer.error !== undefined) {
      throw new Error(`tools/call ${name} failed: ${answer.error.code} ${answer.error.message}`);
    }
    return answer.result ?? {};
  }
}

function envelope(protocol: Protocol): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": protocol,
    "io.modelcontextprotocol/clientCapabilities": {},
  };
}

/** The answer in a JSON body, or the last `data:` line of an SSE body. */
function parseAnswer(text: string, contentType: string): RpcAnswer {
  if (!contentType.includes("text/event-stream")) return JSON.parse(text);
  let last: string | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith("data:")) last = line.slice(5).trim();
  }
  if (last === undefined) throw new Error("The SSE answer carried no data line");
  return JSON.parse(last);
}
