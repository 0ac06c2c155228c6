/** Which addresses the client-metadata fetch may connect to: public unicast only. */

import assert from "node:assert/strict";
import {
  addressGroup,
  clientAddress,
  isIpLiteral,
  isLoopbackHost,
  isPublicAddress,
} from "../../src/auth/address.ts";

Deno.test("isPublicAddress() admits public unicast and refuses every internal or special range", () => {
  const publicOnes = [
    "93.184.216.34",
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "[2a00:1450:4001:82b::200e]",
    "::ffff:93.184.216.34",
    "64:ff9b::808:808",
    "2002:5db8:d822::1",
  ];
  for (const address of publicOnes) assert.equal(isPublicAddress(address), true, address);
  const internal = [
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "192.0.2.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.251",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "64:ff9b::a00:1",
    "64:ff9b:1::1",
    "2002:7f00:1::1",
    "2001::1",
    "2001:db8::1",
    "3fff::1",
    "fc00::1",
    "fd12:3456:789a::1",
    "fe80::1",
    "fec0::1",
    "ff02::1",
    "100::1",
    "fe80::1%eth0",
    "not-an-address",
    "1.2.3",
    "01.2.3.4",
    "1.2.3.256",
  ];
  for (const address of internal) assert.equal(isPublicAddress(address), false, address);
});

Deno.test("isIpLiteral() and isLoopbackHost() read hosts as URLs give them", () => {
  assert.equal(isIpLiteral("127.0.0.1"), true);
  assert.equal(isIpLiteral("[::1]"), true);
  assert.equal(isIpLiteral("claude.ai"), false);
  for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1"]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ["localhost.evil.example", "127.0.0.1.nip.io", "[::2]", "10.0.0.1", ""]) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});

Deno.test("addressGroup() counts an IPv4 address alone, an IPv6 one by its /64, a mapped one as IPv4", () => {
  assert.equal(addressGroup("203.0.113.7"), "203.0.113.7");
  assert.equal(addressGroup("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  assert.equal(addressGroup("[2001:db8:1:3::1]"), "2001:db8:1:3::/64");
  assert.equal(addressGroup("::ffff:203.0.113.7"), "203.0.113.7");
  assert.equal(addressGroup("unknown"), "unknown");
});

Deno.test("clientAddress() reads the proxy's last entry when it is an address, else the peer", () => {
  assert.equal(clientAddress("10.0.0.2", "198.51.100.1, 203.0.113.7"), "203.0.113.7");
  assert.equal(clientAddress("10.0.0.2", "2001:db8::1"), "2001:db8::1");
  assert.equal(clientAddress("10.0.0.2", "[2001:db8::1]"), "2001:db8::1");
  assert.equal(clientAddress("10.0.0.2", null), "10.0.0.2");
  assert.equal(clientAddress("10.0.0.2", "203.0.113.7, not-an-address"), "10.0.0.2");
  assert.equal(clientAddress("10.0.0.2", ""), "10.0.0.2");
});
