/**
 * `mcp-remote` (the stdio bridge Claude desktop and others use for remote servers) against the
 * real server in the public mode, as a player meets it: the server runs as `deno task start`
 * with `PRIORY_AUTH=oauth` over the fake GW2 API; `mcp-remote` (pinned in `deno.json`, run from
 * the lock) discovers OAuth from the 401, registers, and prints the sign-in URL; headless Chromium
 * opens it, fills the key and clicks Allow; the consent page's redirect reaches `mcp-remote`'s
 * callback, which exchanges the code; then `priory_account` answers over stdio with no
 * `X-GW2-Key` anywhere. When GW2 later rejects the key, the server ends the sign-in, and
 * `mcp-remote` - which would otherwise keep presenting its saved one - signs in again through
 * the consent page on its next call.
 */

import assert from "node:assert/strict";
import { startFakeGw2, TEST_KEYS } from "../fake_gw2/mod.ts";
import { browserGate, within } from "../support/browser.ts";
import { TEST_SECRET } from "../support/oauth.ts";
import { ROOT } from "../support/process.ts";
import { Output, servePriory } from "../support/served.ts";

const BROWSER = await browserGate();

/** The `mcp-remote` release the lock pins (≥ 0.1.16, past CVE-2025-6514). */
const MCP_REMOTE = "npm:mcp-remote@0.15.1";

/** A loopback port free right now. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

/** Resolves once something accepts connections on loopback `port` (within 30 s). */
async function listening(port: number): Promise<void> {
  const until = performance.now() + 30_000;
  for (;;) {
    try {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port });
      conn.close();
      return;
    } catch (error) {
      if (performance.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Newline-delimited JSON-RPC over a child's stdin/stdout. */
class StdioPeer {
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #out: Output;

  constructor(child: Deno.ChildProcess) {
    this.#writer = child.stdin.getWriter();
    this.#out = new Output(child.stdout);
  }

  async send(message: Record<string, unknown>): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  }

  /** The answer to request `id`. */
  async answer(id: number): Promise<Record<string, unknown>> {
    const [line = ""] = await within<RegExpExecArray>(
      60_000,
      `mcp-remote's answer to request ${id}`,
      (resolve, reject) => {
        this.#out.waitFor(new RegExp(`^\\{.*"id":${id}[,}].*$`, "m")).then(resolve, reject);
      },
    );
    return JSON.parse(line);
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#out.done;
  }
}

Deno.test({
  name:
    `mcp-remote signs in through the consent page in Chromium and calls priory_account with no X-GW2-Key${BROWSER.suffix}`,
  ignore: BROWSER.skipped,
  async fn() {
    await using fake = await startFakeGw2();
    const port = freePort();
    await using server = await servePriory({
      PORT: String(port),
      PRIORY_AUTH: "oauth",
      PRIORY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PRIORY_SECRET: TEST_SECRET,
      GW2_API_BASE: fake.url,
      PRIORY_CATALOGUE: "off",
    });
    const config = await Deno.makeTempDir({ prefix: "priory-mcp-remote-" });
    const callbackPort = freePort();
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MCP_REMOTE, `${server.url}/mcp`, String(callbackPort)],
      cwd: ROOT,
      // BROWSER=true: the bridge "opens" the URL with a command that does nothing; the test's
      // Chromium opens it instead, from the URL the bridge prints.
      env: { MCP_REMOTE_CONFIG_DIR: config, BROWSER: "true", NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = new Output(child.stderr);
    const peer = new StdioPeer(child);
    try {
      await peer.send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "priory-tests", version: "1.0.0" },
        },
      });
      const [, url = ""] = await within<RegExpExecArray>(
        60_000,
        "mcp-remote's sign-in URL",
        (resolve, reject) => {
          stderr.waitFor(/Please authorize this client by visiting:\s+(\S+)/).then(resolve, reject);
        },
      );
      assert.ok(url.startsWith(`${server.url}/authorize?`), url);
      assert.match(url, /code_challenge_method=S256/);
      assert.match(url, new RegExp(`resource=${encodeURIComponent(`${server.url}/mcp`)}`));

      await using browser = await BROWSER.launch();
      const page = await browser.newPage();
      /** The player's part of a sign-in: the consent page opened, the key given, Allow. */
      const consent = async (at: string) => {
        await page.navigate(at);
        assert.equal(
          await page.evaluate("document.querySelector('h1').textContent"),
          "Sign in to Priory MCP",
        );
        const back = within<void>(30_000, "mcp-remote's callback page", (resolve) => {
          return page.on("Page.loadEventFired", () => resolve());
        });
        await page.evaluate(`(() => {
          document.querySelector('input[name="gw2_key"]').value = ${JSON.stringify(TEST_KEYS.full)};
          document.querySelector('button[value="allow"]').click();
        })()`);
        await back;
        assert.match(
          String(await page.evaluate("location.href")),
          /^http:\/\/localhost:\d+\/oauth\/callback\?code=/,
        );
      };
      await consent(url);

      const initialized = await peer.answer(1);
      assert.ok(initialized.result, JSON.stringify(initialized));
      await peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const call = async (id: number, name: string) => {
        await peer.send({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name, arguments: {} },
        });
        const called = await peer.answer(id);
        return called.result as
          | {
            structuredContent?: { name?: string };
            isError?: boolean;
            content?: { text?: string }[];
          }
          | undefined;
      };
      const result = await call(2, "priory_account");
      assert.equal(result?.structuredContent?.name, "Priory Tester.4821", JSON.stringify(result));

      // The player deletes the key at ArenaNet: the next read is refused, and the sign-in ends.
      fake.control.injectFault("invalid_key", { times: Infinity });
      const rejected = await call(3, "priory_account_wallet");
      assert.equal(rejected?.isError, true);
      assert.match(rejected?.content?.[0]?.text ?? "", /this sign-in has ended/);
      fake.control.clearFaults();
      // mcp-remote does not keep using its saved sign-in: the server refuses it, so the next call
      // makes it sign in again - through the consent page - and then answers.
      await peer.send({
        jsonrpc: "2.0",
        id: 4,
        method: "tools/call",
        params: { name: "priory_account", arguments: {} },
      });
      const [, again = ""] = await within<RegExpExecArray>(
        60_000,
        "mcp-remote's second sign-in URL",
        (resolve, reject) => {
          stderr.waitFor(
            /Please authorize this client by visiting:\s+\S+[\s\S]*Please authorize this client by visiting:\s+(\S+)/,
          ).then(resolve, reject);
        },
      );
      // It prints the URL before its callback listens again; a player takes longer than this.
      await listening(callbackPort);
      await consent(again);
      const after = await peer.answer(4);
      const resumed = after.result as { structuredContent?: { name?: string } } | undefined;
      assert.equal(resumed?.structuredContent?.name, "Priory Tester.4821", JSON.stringify(after));
    } finally {
      try {
        child.kill("SIGTERM");
      } catch {
        // already gone
      }
      await child.status;
      await peer.close();
      await stderr.done;
      await Deno.remove(config, { recursive: true }).catch(() => {});
    }
  },
});
