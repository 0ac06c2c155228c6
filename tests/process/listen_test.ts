import assert from "node:assert/strict";
import { ConfigError } from "../../src/config.ts";
import { listenError } from "../../src/process/listen.ts";

const ADDRESS = { hostname: "127.0.0.1", port: 8000 };

Deno.test("listenError() names the variable and the fix for each listen failure", async (t) => {
  const cases: [string, Error, string, RegExp][] = [
    [
      "port in use",
      new Deno.errors.AddrInUse("os error 98"),
      "PORT",
      /in use.*set "PORT" to a free/,
    ],
    [
      "address not on this machine",
      new Deno.errors.AddrNotAvailable("os error 99"),
      "PRIORY_HOSTNAME",
      /"PRIORY_HOSTNAME" is not an address of this machine/,
    ],
    [
      "privileged port",
      new Deno.errors.PermissionDenied("os error 13"),
      "PORT",
      /below 1024.*"PORT" to 1024 or above/,
    ],
  ];
  for (const [label, error, variable, fix] of cases) {
    await t.step(label, () => {
      const mapped = listenError(error, ADDRESS);
      assert.ok(mapped instanceof ConfigError);
      assert.equal(mapped.variable, variable);
      assert.match(mapped.message, /^Cannot listen on 127\.0\.0\.1:8000: /);
      assert.match(mapped.message, fix);
      assert.doesNotMatch(mapped.message, /os error/, "the runtime's wording stays out");
    });
  }
});

Deno.test("listenError() brackets an IPv6 address and passes any other error through", () => {
  const mapped = listenError(new Deno.errors.AddrInUse("x"), { hostname: "::1", port: 80 });
  assert.ok(mapped instanceof ConfigError);
  assert.match(mapped.message, /^Cannot listen on \[::1\]:80: /);
  const other = new TypeError("something else");
  assert.equal(listenError(other, ADDRESS), other);
});
