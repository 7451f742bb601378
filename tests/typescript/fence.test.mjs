// The TypeScript binding's fence (node --test, fast-check): marks that verify, byte flips
// and other keys that do not, replays, allow-lists, the fenced readers, a key that never
// shows, and the shared vectors. Its SHA-256 and HMAC: fence_sha256.test.mjs.
// Run through tests/typescript/test_typescript_fence.py, which passes the binding's folder.
import assert from "node:assert/strict";
import { webcrypto } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Readable } from "node:stream";
import { test } from "node:test";
import { inspect } from "node:util";
import fc from "fast-check";

const FOLDER = process.env.BERNSTEIN_TS_BINDING;
const binding = await import(join(FOLDER, "index.js"));
const { toHex } = await import(join(FOLDER, "_sha256.js"));
const { dumpCanonical, loadObject } = await import(join(FOLDER, "_json.js"));
const VECTORS_FILE = join(dirname(fileURLToPath(import.meta.url)), "..", "data", "fence_vectors.json");
const {
  FenceError,
  FenceVerifier,
  KEY_FD_VARIABLE,
  KEY_VARIABLE,
  MARK_FIELD,
  MAX_SEQUENCE,
  SIGNAL_KINDS,
  SignalFormatError,
  SignalKey,
  SignalMarker,
  SignalScanner,
  formatSignal,
  parseSignal,
  readSignals,
  takeProcessKey,
} = binding;
const RUNS = { numRuns: 200, seed: 20261203 };
const ENCODER = new TextEncoder();
const bytesOf = (text) => ENCODER.encode(text);

// Payloads formatSignal writes for COMPLETED (its schema takes extras): non-ASCII and astral
// keys, U+2028, floats, big integers, nested values.
const text = fc.string({ unit: "binary", maxLength: 10 }).filter((s) => !/[\uD800-\uDFFF]/u.test(s) || /^(?:[\uD800-\uDBFF][\uDC00-\uDFFF]|[^\uD800-\uDFFF])*$/u.test(s));
const name = fc.oneof(text, fc.constantFrom("Zeta", "_a", "`x", "\u2028", "\u{1F600}", "é", "0")).filter((key) => key !== MARK_FIELD && key !== "summary" && key !== "__proto__");
const scalar = fc.oneof(
  text,
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).filter((n) => n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ maxDepth: 3 }, scalar, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(name, tie("node"), { maxKeys: 3 })),
})).node;
const payload = fc.option(fc.dictionary(name, value, { maxKeys: 5 }), { nil: null });
const secret = fc.uint8Array({ minLength: 32, maxLength: 32 });
const run = fc.uint8Array({ minLength: 8, maxLength: 8 });
const keyOf = (runBytes, secretBytes) => SignalKey.parse(`${toHex(runBytes)}:${toHex(secretBytes)}`);
const withoutUndefined = (object) => JSON.parse(JSON.stringify(object ?? {}, (_, v) => (typeof v === "bigint" ? `${v}n` : v)));

test("every line the marker writes verifies, with the payload it was given", () => {
  fc.assert(
    fc.property(run, secret, fc.array(payload, { minLength: 1, maxLength: 4 }), (runBytes, secretBytes, payloads) => {
      const key = keyOf(runBytes, secretBytes);
      const marker = new SignalMarker(key);
      const verifier = new FenceVerifier(key);
      payloads.forEach((given, index) => {
        const line = marker.mark("COMPLETED", given);
        assert.equal(marker.seq, index + 1);
        const unfenced = formatSignal("COMPLETED", given);
        const verdict = verifier.check(line);
        assert.equal(verdict.code, null, `${line}: ${verdict.problem}`);
        assert.equal(verdict.seq, index + 1);
        assert.equal(verdict.signal.rawLine, line);
        assert.equal(JSON.stringify(withoutUndefined(verdict.signal.payload)), JSON.stringify(withoutUndefined(parseSignal(unfenced).payload)));
        // An unfenced reader reads the same line as an ordinary signal, one member more.
        assert.equal(typeof parseSignal(line).payload[MARK_FIELD], "string");
      });
    }),
    RUNS,
  );
});

test("flipping any bit of any byte of a marked line makes it no signal", () => {
  const key = SignalKey.generate();
  fc.assert(
    fc.property(payload, fc.nat(), fc.integer({ min: 0, max: 7 }), (given, where, bit) => {
      const line = bytesOf(new SignalMarker(key).mark("COMPLETED", given));
      const flipped = line.slice();
      flipped[where % line.length] ^= 1 << bit;
      const verdict = new FenceVerifier(key).check(flipped);
      assert.equal(verdict.signal, null, new TextDecoder().decode(flipped));
    }),
    { ...RUNS, numRuns: 2000 },
  );
  // Exhaustively on one line: every position, every bit.
  const line = bytesOf(new SignalMarker(key).mark("FAILED", { reason: "x \u2028 \u{1F600}", n: 1.5 }));
  for (let index = 0; index < line.length; index++) {
    for (let bit = 0; bit < 8; bit++) {
      const flipped = line.slice();
      flipped[index] ^= 1 << bit;
      assert.equal(new FenceVerifier(key).check(flipped).signal, null, `byte ${index} bit ${bit}`);
    }
  }
});

test("a line marked with one run's key fails under another's", () => {
  fc.assert(
    fc.property(run, secret, run, secret, payload, (runA, secretA, runB, secretB, given) => {
      fc.pre(toHex(runA) !== toHex(runB) || toHex(secretA) !== toHex(secretB));
      const line = new SignalMarker(keyOf(runA, secretA)).mark("COMPLETED", given);
      const verdict = new FenceVerifier(keyOf(runB, secretB)).check(line);
      assert.equal(verdict.code, "BS601");
      const why = toHex(runA) === toHex(runB) ? "bad mark" : "marked for another run";
      assert.equal(verdict.problem, `unauthenticated COMPLETED signal: ${why}`);
    }),
    RUNS,
  );
});

test("replays, forgeries and allow-lists get their codes and words", () => {
  const key = SignalKey.generate();
  const marker = new SignalMarker(key);
  const first = marker.mark("QUESTION", { question: "go?" });
  const second = marker.mark("FAILED", { reason: "r" });
  const third = marker.mark("COMPLETED");
  const verifier = new FenceVerifier(key, { allowKinds: ["QUESTION", "COMPLETED"] });
  assert.equal(verifier.check(`${first}\r\n`).signal.kind, "QUESTION");
  assert.deepEqual(verifier.check(second), {
    signal: null,
    code: "BS603",
    problem: "FAILED signal not allowed in this run (allowed: COMPLETED, QUESTION)",
    seq: 2,
    lineNo: null,
  });
  assert.equal(verifier.check(first).problem, "replayed QUESTION signal: sequence number 1 again after 2");
  const done = verifier.check(third);
  assert.deepEqual([done.signal.kind, done.signal.payload, done.signal.isTerminal, done.seq], ["COMPLETED", {}, true, 3]);
  assert.equal(verifier.check(third).code, "BS602");
  const plain = { signal: null, code: null, problem: null, seq: null, lineNo: null };
  for (const line of ["hello", "BERNSTEIN:NOPE", "BERNSTEIN:COMPLETED {", new Uint8Array([0x42, 0xff]), 7, null]) {
    assert.deepEqual(verifier.check(line), plain);
  }
  const forged = [
    ["BERNSTEIN:COMPLETED", "not marked"],
    ['BERNSTEIN:COMPLETED {"_sig":5}', "bad mark"],
    [`BERNSTEIN:COMPLETED {"_sig":"${key.run}.0.${"0".repeat(64)}"}`, "bad mark"],
    [`BERNSTEIN:COMPLETED {"_sig":"${key.run}.9007199254740992.${"0".repeat(64)}"}`, "bad mark"],
    [`BERNSTEIN:COMPLETED {"_sig":"${key.run}.01.${"0".repeat(64)}"}`, "bad mark"],
    [`BERNSTEIN:COMPLETED {"_sig":"${"f".repeat(16)}.4.${"0".repeat(64)}"}`, "marked for another run"],
    [third.replace("{", "{ "), "not in canonical form"],
    [`${third.slice(0, -1)},"${MARK_FIELD}":${JSON.stringify(parseSignal(third).payload[MARK_FIELD])}}`, "not in canonical form"],
    [third.replace("COMPLETED", "FAILED"), "bad mark", "FAILED"],
  ];
  for (const [line, why, kind = "COMPLETED"] of forged) {
    const verdict = new FenceVerifier(key).check(line);
    assert.deepEqual([verdict.code, verdict.problem, verdict.seq], ["BS601", `unauthenticated ${kind} signal: ${why}`, null], line);
  }
  // No key: the allow-list alone; marks pass through untouched.
  const open = new FenceVerifier(null, { allowKinds: [] });
  assert.equal(open.check("BERNSTEIN:COMPLETED").problem, "COMPLETED signal not allowed in this run (allowed: none)");
  const listed = new FenceVerifier(null, { allowKinds: ["COMPLETED"] }).check(third);
  assert.equal(typeof listed.signal.payload[MARK_FIELD], "string");
  assert.throws(() => new FenceVerifier(key, { allowKinds: "COMPLETED" }), TypeError);
  assert.throws(() => new FenceVerifier(key, { allowKinds: ["DONE"] }), RangeError);
  assert.throws(() => new FenceVerifier("0".repeat(81)), TypeError);
});

test("the marker refuses what formatSignal refuses, a marked payload, and spent numbers", () => {
  const marker = new SignalMarker(SignalKey.generate());
  assert.throws(() => marker.mark("DONE"), SignalFormatError);
  assert.throws(() => marker.mark("FAILED", { reason: 5 }), { code: "payload-schema" });
  assert.throws(() => marker.mark("COMPLETED", { [MARK_FIELD]: "x" }), { name: "FenceError", code: "marked-payload" });
  assert.equal(marker.seq, 0, "a refused line takes no sequence number");
  marker._seq = MAX_SEQUENCE - 1;
  assert.match(marker.mark("COMPLETED"), new RegExp(`\\.${MAX_SEQUENCE}\\.`));
  assert.throws(() => marker.mark("COMPLETED"), { code: "sequence-spent" });
  assert.throws(() => new SignalMarker(null), TypeError);
  assert.throws(() => new SignalMarker({ run: "0".repeat(16) }), TypeError);
});

test("no string, JSON, inspection or error of a key, marker or verifier shows the secret", () => {
  fc.assert(
    fc.property(run, secret, (runBytes, secretBytes) => {
      const key = keyOf(runBytes, secretBytes);
      const hidden = toHex(secretBytes);
      assert.equal(key.text(), `${toHex(runBytes)}:${hidden}`);
      const marker = new SignalMarker(key);
      const verifier = new FenceVerifier(key);
      const shown = [
        String(key),
        `${key}`,
        JSON.stringify(key),
        JSON.stringify({ key, marker, verifier }),
        inspect(key, { showHidden: true, depth: Infinity }),
        inspect(marker, { showHidden: true, depth: Infinity }),
        inspect(verifier, { showHidden: true, depth: Infinity }),
        Object.getOwnPropertyNames(key).join(),
        structuredClone(key).toString(),
      ];
      for (const near of [key.text().toUpperCase(), `${key.text()} `, key.text().slice(1), `x${key.text()}`]) {
        try {
          SignalKey.parse(near);
          assert.fail("a near-miss key text was taken");
        } catch (error) {
          assert.ok(error instanceof FenceError);
          shown.push(String(error), error.stack);
        }
      }
      for (const out of shown) assert.ok(!out.toLowerCase().includes(hidden), out);
    }),
    { ...RUNS, numRuns: 100 },
  );
  assert.throws(() => new SignalKey(), TypeError);
  assert.throws(() => SignalKey.parse(5), TypeError);
  const key = SignalKey.parse(`${"a".repeat(16)}:${"b".repeat(64)}\n`);
  assert.equal(key.text(), `${"a".repeat(16)}:${"b".repeat(64)}`);
  assert.ok(Object.isFrozen(key));
});

// Review finding 1: a key text passed where a SignalKey, an option or a kind belongs.
test("no error of any entry point quotes a key text passed where it does not belong", async () => {
  const failures = (value, keyText) => [
    () => new SignalMarker(value),
    () => new FenceVerifier(value),
    () => new FenceVerifier(null, { allowKinds: value }),
    () => new FenceVerifier(null, { allowKinds: [value] }),
    () => new FenceVerifier(null, value),
    () => new SignalScanner({ key: value }),
    () => new SignalScanner({ allowKinds: [value] }),
    () => new SignalScanner({ key: value, onRejected: value }),
    () => SignalKey.parse(value),
    () => SignalKey.generate(value),
    () => takeProcessKey(value),
    () => takeProcessKey({ [KEY_VARIABLE]: value }),
    () => takeProcessKey({ [KEY_FD_VARIABLE]: value }),
    () => takeProcessKey({ [KEY_FD_VARIABLE]: "3" }, { readDescriptor: value }),
    () => takeProcessKey({ [KEY_FD_VARIABLE]: "3" }, { readDescriptor: () => value }),
    () => takeProcessKey({ [KEY_FD_VARIABLE]: "3" }, { readDescriptor: () => { throw Object.assign(new Error("no"), { code: keyText }); } }),
    () => new SignalMarker(SignalKey.parse(keyText)).mark(value),
    () => new SignalMarker(SignalKey.parse(keyText)).mark("COMPLETED", value),
    () => new SignalMarker(SignalKey.parse(keyText)).mark(value, value, value),
    () => new FenceVerifier(SignalKey.parse(keyText)).check(value),
  ];
  await fc.assert(
    fc.asyncProperty(run, secret, fc.integer({ min: 0, max: 5 }), async (runBytes, secretBytes, form) => {
      const keyText = `${toHex(runBytes)}:${toHex(secretBytes)}`;
      const value = [keyText, `${keyText}\n`, keyText.toUpperCase(), [keyText], { key: keyText }, new String(keyText)][form];
      const texts = [];
      for (const call of failures(value, keyText)) {
        try {
          call();
        } catch (error) {
          texts.push(String(error), String(error?.stack));
        }
      }
      for (const options of [{ key: value }, { allowKinds: [value] }]) {
        try {
          for await (const record of readSignals([], options)) texts.push(String(record));
        } catch (error) {
          texts.push(String(error), String(error?.stack));
        }
      }
      assert.ok(texts.length >= 20, "the entry points refuse a key text");
      const digits = keyText.replace(":", "");
      for (const out of texts) {
        const lower = out.toLowerCase();
        for (let at = 0; at + 8 <= digits.length; at++) {
          assert.ok(!lower.includes(digits.slice(at, at + 8)), `key digits shown in: ${out.slice(0, 300)}`);
        }
      }
    }),
    { ...RUNS, numRuns: 60 },
  );
  assert.throws(() => new SignalMarker("x"), { message: "SignalMarker takes a SignalKey, not a string" });
  assert.throws(() => new FenceVerifier(null, { allowKinds: ["COMPLETD"] }), /allowKinds: "COMPLETD" is not a signal kind/);
  assert.throws(() => new SignalMarker(SignalKey.generate(webcrypto)).mark("DONE"), { code: "unknown-kind", message: 'unknown signal kind "DONE"' });
});

// Review finding 8: a lenient parse strips the line, so no public method takes a parsed signal.
test("a marked line padded with whitespace is no signal, through any public method of the verifier", async () => {
  const pads = fc.stringMatching(/^[ \t\f\v]{0,3}$/);
  await fc.assert(
    fc.asyncProperty(run, secret, pads, pads, async (runBytes, secretBytes, before, after) => {
      fc.pre(before !== "" || after !== "");
      const key = keyOf(runBytes, secretBytes);
      const line = new SignalMarker(key).mark("COMPLETED", { summary: "done" });
      const padded = `${before}${line}${after}`;
      const lenient = parseSignal(padded, { lenient: true });
      assert.equal(lenient?.rawLine, line, "the lenient parser strips the line (the premise)");
      const verifier = new FenceVerifier(key);
      assert.equal(verifier.check(padded).signal, null);
      const methods = Object.getOwnPropertyNames(FenceVerifier.prototype).filter(
        (name) => name !== "constructor" && !name.startsWith("_") && typeof Object.getOwnPropertyDescriptor(FenceVerifier.prototype, name).value === "function",
      );
      assert.deepEqual(methods, ["check"]);
      for (const name of methods) {
        let verdict = null;
        try {
          verdict = new FenceVerifier(key)[name](lenient);
        } catch {
          // refusing is fine
        }
        assert.equal(verdict?.signal ?? null, null, `${name} accepted a lenient-parsed line`);
      }
      const read = [];
      for await (const record of readSignals([`${padded}\n`], { key })) read.push(record);
      assert.deepEqual(read, []);
      assert.equal(new FenceVerifier(key).check(line).signal?.kind, "COMPLETED");
    }),
    { ...RUNS, numRuns: 100 },
  );
});

test("generate makes distinct well-formed keys from the source given, and refuses none", () => {
  const texts = new Set(Array.from({ length: 50 }, () => SignalKey.generate(webcrypto).text()));
  assert.equal(texts.size, 50);
  for (const text of texts) assert.match(text, /^[0-9a-f]{16}:[0-9a-f]{64}$/);
  const fixed = { getRandomValues: (array) => array.fill(7) };
  assert.equal(SignalKey.generate(fixed).text(), `${"07".repeat(8)}:${"07".repeat(32)}`);
  assert.throws(() => SignalKey.generate({}), { name: "FenceError", code: "no-random" });
});

test("takeProcessKey takes the key once, removes both variables, and refuses without the value", () => {
  const key = SignalKey.generate();
  const env = { [KEY_VARIABLE]: key.text(), OTHER: "1" };
  assert.equal(takeProcessKey(env).text(), key.text());
  assert.deepEqual(env, { OTHER: "1" });
  assert.equal(takeProcessKey(env), null);
  const read = [];
  const byFd = { [KEY_FD_VARIABLE]: "3", [KEY_VARIABLE]: "ignored" };
  const fromFd = takeProcessKey(byFd, { readDescriptor: (fd) => (read.push(fd), `${key.text()}\n`) });
  assert.deepEqual([fromFd.text(), read, byFd], [key.text(), [3], {}]);
  const failing = () => {
    throw Object.assign(new Error(`EBADF ${key.text()}`), { code: "EBADF" });
  };
  const bad = [
    [{ [KEY_VARIABLE]: `${key.text()}0` }, {}, "BERNSTEIN_SIGNAL_KEY is not a signal key: expected 16 hex digits, ':', 64 hex digits"],
    [{ [KEY_VARIABLE]: "" }, {}, "BERNSTEIN_SIGNAL_KEY is not a signal key: expected 16 hex digits, ':', 64 hex digits"],
    [{ [KEY_FD_VARIABLE]: "12" }, {}, "BERNSTEIN_SIGNAL_KEY_FD is not a descriptor number 3..9"],
    [{ [KEY_FD_VARIABLE]: "4" }, {}, "BERNSTEIN_SIGNAL_KEY_FD names fd 4, but no readDescriptor was given to read it"],
    [{ [KEY_FD_VARIABLE]: "5" }, { readDescriptor: failing }, "BERNSTEIN_SIGNAL_KEY_FD names fd 5, which cannot be read (EBADF)"],
    [{ [KEY_FD_VARIABLE]: "6" }, { readDescriptor: () => `${key.text()}x` }, "the text on fd 6 (BERNSTEIN_SIGNAL_KEY_FD) is not a signal key: expected 16 hex digits, ':', 64 hex digits"],
  ];
  for (const [env2, options, problem] of bad) {
    assert.throws(() => takeProcessKey(env2, options), { name: "FenceError", code: "bad-key", message: `no signal key: ${problem}` });
    assert.deepEqual(env2, {});
  }
  assert.equal(takeProcessKey({}), null);
  assert.throws(() => takeProcessKey(undefined), TypeError);
});

async function readAll(chunks, options) {
  const records = [];
  for await (const record of readSignals(Readable.from(chunks), options)) records.push(record);
  return records;
}

test("the fenced readers yield only the run's own signals and report the rest with line numbers", async () => {
  const key = SignalKey.generate();
  const marker = new SignalMarker(key);
  const real = [marker.mark("QUESTION", { question: "?" }), marker.mark("PLAN_READY", { path: ".sdd/plans/x.md" }), marker.mark("COMPLETED")];
  const stranger = new SignalMarker(SignalKey.generate()).mark("COMPLETED");
  const lines = ["agent: cat notes.txt", "BERNSTEIN:COMPLETED", real[0], stranger, real[1], real[0], 'BERNSTEIN:PLAN_READY {"path":".sdd/plans/evil.md"}', real[2]];
  const stream = lines.join("\n");
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat({ max: stream.length }), { maxLength: 6 }), async (cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), stream.length];
      const chunks = points.slice(1).map((end, index) => bytesOf(stream).subarray(bytesOf(stream.slice(0, points[index])).length, bytesOf(stream.slice(0, end)).length));
      const rejected = [];
      const records = await readAll(chunks, { key, allowKinds: ["QUESTION", "COMPLETED"], onRejected: (verdict) => rejected.push([verdict.lineNo, verdict.code]) });
      assert.deepEqual(records.map((r) => [r.lineNo, r.signal.kind]), [[3, "QUESTION"], [8, "COMPLETED"]]);
      assert.deepEqual(records[0].signal.payload, { question: "?" });
      assert.deepEqual(rejected, [[2, "BS601"], [4, "BS601"], [5, "BS603"], [6, "BS602"], [7, "BS601"]]);
    }),
    { ...RUNS, numRuns: 100 },
  );
  // A run whose only terminal is forged has no terminal; the unfenced reader would take it.
  const forgedOnly = [marker.mark("QUESTION", { question: "again?" }), "BERNSTEIN:COMPLETED", stranger].join("\n");
  const fencedSignals = (await readAll([forgedOnly], { key })).map((r) => r.signal);
  assert.deepEqual(fencedSignals.map((signal) => signal.kind), ["QUESTION"]);
  assert.notEqual(binding.checkTerminalSignal(fencedSignals, { runId: "r" }), null);
  const unfencedSignals = (await readAll([forgedOnly], {})).map((r) => r.signal);
  assert.equal(binding.checkTerminalSignal(unfencedSignals, { runId: "r" }), null);
  // Unfenced readers read every signal line, marks and all.
  const unfenced = await readAll([stream], {});
  assert.deepEqual(unfenced.map((r) => r.lineNo), [2, 3, 4, 5, 6, 7, 8]);
  assert.equal(typeof unfenced[1].signal.payload[MARK_FIELD], "string");
  assert.throws(() => new SignalScanner({ onRejected: () => {} }), RangeError);
  assert.throws(() => new SignalScanner({ key, unknownKinds: true }), RangeError);
  assert.throws(() => new SignalScanner({ key, onRejected: 5 }), TypeError);
  assert.throws(() => new SignalScanner({ key: "k" }), TypeError);
});

test("every kind marks and verifies; the kinds are the vocabulary's", () => {
  const key = SignalKey.generate();
  const marker = new SignalMarker(key);
  const verifier = new FenceVerifier(key, { allowKinds: SIGNAL_KINDS });
  const examples = { QUESTION: { question: "q" }, PLAN_READY: { path: ".sdd/plans/p.md" }, PLAN_DRAFT: { path: ".sdd/plans/p.md" }, BLOCKED: { reason: "r" } };
  for (const kind of SIGNAL_KINDS) {
    const line = marker.mark(kind, examples[kind] ?? null, { validate: false });
    assert.equal(verifier.check(line).signal?.kind, kind, line);
  }
});

test("the shared vectors: every marked line byte for byte, every tampered line its code", () => {
  const vectors = JSON.parse(readFileSync(VECTORS_FILE, "utf8"));
  assert.equal(vectors.fence_version, binding.FENCE_VERSION);
  assert.equal(vectors.mac_domain, binding.MAC_DOMAIN);
  const key = SignalKey.parse(vectors.key);
  const verifier = new FenceVerifier(key);
  assert.ok(vectors.marked.length >= 20 && vectors.tampered.length >= 15);
  let last = 0;
  for (const vector of vectors.marked) {
    // Payloads come from payload_text through the binding's exact reader: big integers stay.
    const given = vector.payload === null ? null : loadObject(vector.payload_text || "{}");
    assert.ok(vector.payload === null || given !== null, vector.name);
    assert.equal(given === null ? "" : payloadTextOf(given), vector.payload_text, vector.name);
    const marker = new SignalMarker(key);
    marker._seq = vector.seq - 1; // the vector's sequence number without marking the ones before
    assert.equal(marker.mark(vector.kind, given), vector.line, vector.name);
    const verdict = verifier.check(vector.line);
    if (vector.seq - last > binding.MAX_SEQUENCE_STEP) {
      // the largest number: out of sequence for a verifier that accepted the others
      assert.equal(verdict.code, binding.REPLAYED_SIGNAL, vector.name);
      assert.match(verdict.problem, /out of sequence/, vector.name);
      continue;
    }
    last = vector.seq;
    assert.equal(verdict.problem, null, vector.name);
    assert.equal(verdict.seq, vector.seq, vector.name);
    assert.equal(dumpCanonical(verdict.signal.payload), vector.payload_text || "{}", vector.name);
  }
  for (const vector of vectors.tampered) {
    const checking = new FenceVerifier(key, { allowKinds: vector.allow_kinds });
    for (const before of vector.before) assert.equal(checking.check(before).code, null, `${vector.name}: ${before}`);
    const verdict = checking.check(vector.line);
    assert.equal(verdict.signal, null, vector.name);
    assert.equal(verdict.code, vector.code, vector.name);
    assert.equal(verdict.problem, vector.problem, vector.name);
    if (vector.reason !== null) assert.ok(verdict.problem.endsWith(`: ${vector.reason}`), vector.name);
  }
});

function payloadTextOf(payload) {
  return Object.keys(payload).length === 0 ? "" : dumpCanonical(payload);
}

test("check never throws, whatever the line holds", () => {
  const key = SignalKey.generate();
  const verifier = new FenceVerifier(key, { allowKinds: ["COMPLETED"] });
  const mark = fc.oneof(fc.string(), fc.constant(`${key.run}.1.${"a".repeat(64)}`), fc.json());
  const line = fc.oneof(
    fc.string({ unit: "binary" }),
    fc.uint8Array({ maxLength: 80 }),
    fc.tuple(fc.constantFrom(...SIGNAL_KINDS), fc.json(), mark).map(([kind, json, sig]) => `BERNSTEIN:${kind} {"${MARK_FIELD}":${JSON.stringify(sig)},"x":${json}}`),
    fc.anything(),
  );
  fc.assert(
    fc.property(line, (given) => {
      const verdict = verifier.check(given);
      assert.ok(verdict.signal === null || verdict.code === null);
      assert.ok(Object.isFrozen(verdict));
    }),
    { ...RUNS, numRuns: 2000 },
  );
});
