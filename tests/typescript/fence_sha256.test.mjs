// The fence's SHA-256 and HMAC-SHA256 (_sha256.js, plain JavaScript) against the FIPS 180-4
// and RFC 4231 examples and against node:crypto (node --test, fast-check). Run through
// tests/typescript/test_typescript_fence.py, which passes the binding's folder.
import assert from "node:assert/strict";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";

const FOLDER = process.env.BERNSTEIN_TS_BINDING;
const { sha256, hmacSha256, hmacKey, hmacWithKey, toHex } = await import(join(FOLDER, "_sha256.js"));
const RUNS = { numRuns: 1000, seed: 20261203 };
const bytesOf = (text) => new TextEncoder().encode(text);

test("SHA-256 gives the FIPS 180-4 example digests", () => {
  const cases = [
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    ],
    ["a".repeat(1000000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"],
  ];
  for (const [message, digest] of cases) assert.equal(toHex(sha256(bytesOf(message))), digest, message.slice(0, 20));
});

test("HMAC-SHA256 gives the RFC 4231 test-case MACs", () => {
  const cases = [
    [new Uint8Array(20).fill(0x0b), bytesOf("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"],
    [bytesOf("Jefe"), bytesOf("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"],
    [new Uint8Array(20).fill(0xaa), new Uint8Array(50).fill(0xdd), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"],
    [
      new Uint8Array(131).fill(0xaa),
      bytesOf("Test Using Larger Than Block-Size Key - Hash Key First"),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    ],
  ];
  for (const [key, message, mac] of cases) assert.equal(toHex(hmacSha256(key, message)), mac);
});

test("SHA-256 and HMAC-SHA256 agree with node:crypto on random keys and messages", () => {
  const bytes = (most) => fc.uint8Array({ maxLength: most });
  fc.assert(
    fc.property(bytes(300), bytes(200), (message, key) => {
      assert.equal(toHex(sha256(message)), createHash("sha256").update(message).digest("hex"));
      const mac = createHmac("sha256", key).update(message).digest("hex");
      assert.equal(toHex(hmacSha256(key, message)), mac);
      const ready = hmacKey(key); // made ready once, used twice: no state carries over
      assert.equal(toHex(hmacWithKey(ready, message)), mac);
      assert.equal(toHex(hmacWithKey(ready, message)), mac);
    }),
    RUNS,
  );
  // Every length around the padding boundaries, where a length slip would show.
  for (let length = 0; length <= 200; length++) {
    const message = randomBytes(length);
    assert.equal(toHex(sha256(message)), createHash("sha256").update(message).digest("hex"), `length ${length}`);
  }
  assert.throws(() => sha256("abc"), TypeError);
  assert.throws(() => hmacSha256([1, 2], bytesOf("x")), TypeError);
});
