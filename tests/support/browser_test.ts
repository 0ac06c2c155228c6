/**
 * The browser driver's failure path: a Chromium that announces a DevTools endpoint nobody can
 * connect to fails the launch at once, and the launch leaves nothing behind (the process, its log
 * reader and its profile; the sanitizers see the first two).
 *
 * @module
 */

import assert from "node:assert/strict";
import { dirname } from "node:path";
import { Browser } from "./browser.ts";

Deno.test({
  name: "Browser.launch() fails at once when the DevTools socket cannot open, and leaves nothing",
  ignore: Deno.build.os === "windows",
  async fn() {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const { port } = listener.addr;
    listener.close();
    const dir = await Deno.makeTempDir({ prefix: "priory-browser-test-" });
    try {
      // A stand-in for Chromium: it announces an endpoint on a closed port, then waits.
      const fake = `${dir}/chromium`;
      await Deno.writeTextFile(
        fake,
        `#!/bin/sh\necho "DevTools listening on ws://127.0.0.1:${port}/devtools/browser/x" >&2\nexec sleep 60\n`,
      );
      await Deno.chmod(fake, 0o755);
      // Profiles are made beside this test's folder, in the system's temporary directory.
      const profiles = async () => {
        const names: string[] = [];
        for await (const entry of Deno.readDir(dirname(dir))) {
          if (entry.name.startsWith("priory-chromium-")) names.push(entry.name);
        }
        return names.sort();
      };
      const before = await profiles();
      const started = performance.now();
      await assert.rejects(Browser.launch(fake), /DevTools socket/);
      assert.ok(performance.now() - started < 10_000, "the refused connection ends the wait");
      assert.deepEqual(await profiles(), before, "the profile is removed");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
