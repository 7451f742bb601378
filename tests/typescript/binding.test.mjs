// Unit and property tests of the generated TypeScript binding (node --test, fast-check).
// Run through tests/typescript/test_typescript_node.py, which passes the binding's folder.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { test } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import fc from "fast-check";

const FOLDER = process.env.BERNSTEIN_TS_BINDING;
const binding = await import(join(FOLDER, "index.js"));
const { loadObject } = await import(join(FOLDER, "_json.js"));
const {
  MAX_INTEGER_DIGITS,
  MAX_NESTING_DEPTH,
  SIGNAL_PREFIX,
  SIGNAL_KINDS,
  SignalFormatError,
  SignalPayloadError,
  SignalScanner,
  QuestionTracker,
  UnknownQuestion,
  AnswerNotAnOption,
  QuestionIdInUse,
  checkTerminalSignal,
  formatReply,
  formatSignal,
  parseReply,
  parseSignal,
  readSignals,
} = binding;
const RUNS = { numRuns: 300, seed: 20261203 };

const key = fc.string({ unit: "binary", maxLength: 6 }).filter((text) => !/[\uD800-\uDFFF]/u.test(text));
const text = fc.string({ unit: "binary", maxLength: 12 }).filter((s) => !/[\uD800-\uDFFF]/u.test(s));
const scalar = fc.oneof(
  text,
  fc.boolean(),
  fc.constant(null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0)),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).filter(
    (value) => value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER),
  ),
);
const { value: jsonValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", maxDepth: 4 }, scalar, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(key, tie("value"), { maxKeys: 4, noNullPrototype: true }),
}));
const payload = fc.dictionary(key, jsonValue, { maxKeys: 5, noNullPrototype: true });

/**
 * A value as the binding reads it back: a double that is an integer past 2^53 is
 * written as its shortest digits (below 1e21), and those digits read back as a bigint.
 */
function asRead(value) {
  if (typeof value === "number") {
    const large = Math.abs(value) > Number.MAX_SAFE_INTEGER && Math.abs(value) < 1e21;
    return Number.isInteger(value) && large ? BigInt(String(value)) : value;
  }
  if (Array.isArray(value)) return value.map(asRead);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, asRead(item)]));
  }
  return value;
}

function nested(depth) {
  let text = "1";
  for (let level = 1; level < depth; level++) text = `[${text}]`;
  return `{"a":${text}}`;
}

test("parseSignal never throws, whatever it is given", () => {
  const lineish = fc.oneof(
    fc.string({ unit: "binary" }),
    fc.string({ unit: "binary" }).map((rest) => SIGNAL_PREFIX + rest),
    fc.tuple(fc.constantFrom(...SIGNAL_KINDS), fc.string({ unit: "binary" })).map(
      ([kind, rest]) => `${SIGNAL_PREFIX}${kind} ${rest}`,
    ),
    fc.uint8Array(),
    fc.anything(),
  );
  fc.assert(
    fc.property(lineish, fc.boolean(), (line, lenient) => {
      const signal = parseSignal(line, { lenient });
      assert.ok(signal === null || SIGNAL_KINDS.includes(signal.kind));
    }),
    RUNS,
  );
});

test("format then parse gives the payload back, and formatting is idempotent", () => {
  fc.assert(
    fc.property(fc.constantFrom(...SIGNAL_KINDS), payload, (kind, value) => {
      const line = formatSignal(kind, value, { validate: false });
      const signal = parseSignal(line);
      assert.notEqual(signal, null, line);
      assert.equal(signal.kind, kind);
      assert.deepEqual(signal.payload, asRead(value));
      assert.equal(formatSignal(kind, signal.payload, { validate: false }), line);
      assert.ok(!/[\n\r\u0085\u2028\u2029]/.test(line), line);
    }),
    RUNS,
  );
});

test("keys are ordered by UTF-16 code units (RFC 8785), not by code points", () => {
  const line = formatSignal("COMPLETED", { "\uffff": 1, "\u{1F600}": 2, a: 3 });
  assert.equal(line, `${SIGNAL_PREFIX}COMPLETED {"a":3,"\u{1F600}":2,"\uffff":1}`);
});

test("numbers are written as ECMAScript writes them; integers past 2^53 exactly", () => {
  const cases = [
    [1.0, "1"],
    [-0, "0"],
    [1e21, "1e+21"],
    [1e-7, "1e-7"],
    [0.1 + 0.2, "0.30000000000000004"],
    [2n ** 70n, "1180591620717411303424"],
  ];
  for (const [value, written] of cases) {
    assert.equal(formatSignal("COMPLETED", { n: value }), `${SIGNAL_PREFIX}COMPLETED {"n":${written}}`);
  }
  const big = parseSignal(`${SIGNAL_PREFIX}COMPLETED {"n":9007199254740993}`);
  assert.equal(big.payload.n, 9007199254740993n);
  assert.equal(parseSignal(`${SIGNAL_PREFIX}COMPLETED {"n":9007199254740991}`).payload.n, 9007199254740991);
});

test("loadObject reads JSON as JSON.parse does, within the grammar", () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 5 })), (value) => {
      const text = JSON.stringify(value);
      if (/[\n\r]|\d{16}|[eE][+-]?\d{3}/.test(text)) return;
      assert.deepEqual(loadObject(text), JSON.parse(text));
    }),
    RUNS,
  );
});

test("the documented limits: depth, integer digits, lone surrogates, non-finite numbers", () => {
  assert.notEqual(loadObject(nested(MAX_NESTING_DEPTH)), null);
  assert.equal(loadObject(nested(MAX_NESTING_DEPTH + 1)), null);
  // A member that a later duplicate drops still counts: the limit is on the text.
  assert.equal(loadObject(`{"a":${nested(MAX_NESTING_DEPTH + 1).slice(5, -1)},"a":1}`), null);
  const digits = "9".repeat(MAX_INTEGER_DIGITS);
  assert.equal(loadObject(`{"n":-${digits}}`).n, -BigInt(digits));
  assert.equal(loadObject(`{"n":${digits}9}`), null);
  assert.equal(loadObject('{"s":"\\ud800"}'), null);
  assert.equal(loadObject('{"s":"\\udc00\\ud800"}'), null);
  assert.equal(loadObject('{"s":"\\\\ud800"}').s, "\\ud800");
  assert.equal(loadObject('{"s":"\\ud83d\\ude00"}').s, "\u{1F600}");
  assert.equal(loadObject('{"s":"\ud800"}'), null);
  assert.equal(loadObject('{"n":1e400}'), null);
  assert.equal(loadObject('{"n":-1e309}'), null);
  assert.equal(loadObject('{"n":1e-400}').n, 0);
  for (const bad of ['{"a":1} ', ' {"a":1}', '{"a":\n1}', '{"a":NaN}', '{"a":1,}', "{'a':1}"]) {
    assert.equal(loadObject(bad), null, bad);
  }
  const own = loadObject('{"__proto__":{"x":1},"a":2,"a":3}');
  assert.equal(Object.getPrototypeOf(own), Object.prototype);
  assert.deepEqual(Object.keys(own).sort(), ["__proto__", "a"]);
  assert.equal(own.a, 3);
  const exact = loadObject('{"__proto__":{"x":1},"n":12345678901234567890}');
  assert.equal(Object.getPrototypeOf(exact), Object.prototype);
  assert.ok(Object.hasOwn(exact, "__proto__"));
});

test("formatSignal refuses what a line cannot carry, with typed errors", () => {
  const refusals = [
    ["DONE", {}, "unknown-kind"],
    ["BLOCKED", {}, "payload-schema"],
    ["QUESTION", { question: "x", options: [] }, "payload-schema"],
    ["COMPLETED", [], "payload-type"],
    ["COMPLETED", new Map(), "payload-type"],
    ["COMPLETED", { n: Number.NaN }, "not-json"],
    ["COMPLETED", { n: Number.POSITIVE_INFINITY }, "not-json"],
    ["COMPLETED", { s: "\udc00" }, "not-json"],
    ["COMPLETED", { "\ud800": 1 }, "not-json"],
    ["COMPLETED", { d: new Date(0) }, "not-json"],
    ["COMPLETED", { f: () => 1 }, "not-json"],
    ["COMPLETED", { n: 10n ** BigInt(MAX_INTEGER_DIGITS) }, "not-json"],
    ["COMPLETED", JSON.parse(nested(MAX_NESTING_DEPTH + 1)), "not-json"],
  ];
  for (const [kind, value, code] of refusals) {
    assert.throws(() => formatSignal(kind, value), (error) => error instanceof SignalFormatError && error.code === code);
  }
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => formatSignal("COMPLETED", cyclic), SignalFormatError);
  assert.ok(formatSignal("COMPLETED", JSON.parse(nested(MAX_NESTING_DEPTH))));
  assert.equal(formatSignal("COMPLETED", { a: undefined, b: 1 }), `${SIGNAL_PREFIX}COMPLETED {"b":1}`);
});

function splitAt(bytes, cuts) {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks = [];
  let at = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(at, point));
    at = point;
  }
  chunks.push(bytes.subarray(at));
  return chunks;
}

async function collect(iterable) {
  const found = [];
  for await (const item of iterable) found.push(item);
  return found;
}

test("readSignals gives the records of parseSignal on each line, however the bytes are chunked", async () => {
  const lineArb = fc.oneof(
    fc.string({ unit: "binary", maxLength: 20 }),
    fc.tuple(fc.constantFrom(...SIGNAL_KINDS), payload).map(([kind, value]) =>
      formatSignal(kind, value, { validate: false }),
    ),
    fc.constantFrom(`${SIGNAL_PREFIX}COMPLETED`, `${SIGNAL_PREFIX}FAILED {}`, SIGNAL_PREFIX, "BERN"),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(lineArb, fc.constantFrom("\n", "\r\n")), { maxLength: 8 }),
      fc.boolean(),
      fc.array(fc.nat(), { maxLength: 6 }),
      fc.integer({ min: 1, max: 80 }),
      async (lines, finalNewline, cuts, limit) => {
        let text = lines.map(([line, end]) => line + end).join("");
        if (!finalNewline && lines.length > 0) text = text.slice(0, -lines.at(-1)[1].length);
        const bytes = new TextEncoder().encode(text);
        const records = await collect(readSignals(splitAt(bytes, cuts), { maxLineBytes: limit }));
        const expected = [];
        const pieces = [];
        let start = 0;
        for (let index = 0; index <= bytes.length; index++) {
          if (index === bytes.length || bytes[index] === 10) {
            if (index < bytes.length || index > start) pieces.push(bytes.subarray(start, index));
            start = index + 1;
          }
        }
        pieces.forEach((piece, index) => {
          const content = stripCr(piece); // a final line without "\n" too, as Python reads it
          if (content.length > limit) return;
          const signal = parseSignal(content);
          if (signal !== null) expected.push([index + 1, signal.kind, signal.rawLine]);
        });
        assert.deepEqual(records.map((r) => [r.lineNo, r.signal.kind, r.signal.rawLine]), expected);
      },
    ),
    RUNS,
  );
});

function stripCr(piece) {
  return piece.at(-1) === 13 ? piece.subarray(0, -1) : piece;
}

test("readSignals reads a Node Readable, in bytes or in text", async () => {
  const lines = ["log", `${SIGNAL_PREFIX}QUESTION {"question":"\u00e9t\u00e9?"}`, `${SIGNAL_PREFIX}COMPLETED`];
  const text = `${lines.join("\n")}\n`;
  const bytes = new TextEncoder().encode(text);
  const streams = [
    Readable.from([bytes.subarray(0, 7), bytes.subarray(7, 30), bytes.subarray(30)]),
    Readable.from([text], { objectMode: false }).setEncoding("utf8"),
  ];
  for (const stream of streams) {
    const records = await collect(readSignals(stream));
    assert.deepEqual(records.map((r) => [r.lineNo, r.signal.kind]), [[2, "QUESTION"], [3, "COMPLETED"]]);
    assert.equal(records[0].signal.payload.question, "\u00e9t\u00e9?");
    assert.deepEqual(records[1].raw, new TextEncoder().encode(lines[2]));
  }
});

test("an over-long line is consumed in bounded memory and is never a signal", () => {
  const scanner = new SignalScanner({ maxLineBytes: 100 });
  const chunk = new TextEncoder().encode(`${SIGNAL_PREFIX}COMPLETED {"a":"${"x".repeat(4000)}`);
  scanner.feed(chunk);
  for (let index = 0; index < 200; index++) {
    scanner.feed(new Uint8Array(4096).fill(0x78));
    assert.ok(scanner._length <= 100 + 1, "the scanner keeps no more than the limit");
  }
  assert.deepEqual(scanner.feed('"}\nBERNSTEIN:COMPLETED\n').map((r) => r.lineNo), [2]);
  assert.equal(scanner.lines, 2);
  const exact = new SignalScanner({ maxLineBytes: 19 });
  assert.equal(exact.feed("BERNSTEIN:COMPLETED\r\n").length, 1);
  assert.equal(new SignalScanner({ maxLineBytes: 18 }).feed("BERNSTEIN:COMPLETED\n").length, 0);
  assert.equal(new SignalScanner().feed(new Uint8Array([...new TextEncoder().encode('BERNSTEIN:COMPLETED {"a":"'), 0xff, 0x22, 0x7d, 10])).length, 0);
});

test("QuestionTracker routes answers by id and first in, first out", () => {
  const tracker = new QuestionTracker();
  const ask = (payload) => tracker.feed(parseSignal(formatSignal("QUESTION", payload)));
  ask({ question: "first?" });
  ask({ question: "which?", options: ["a", "b"], id: "q1" });
  ask({ question: "second?" });
  assert.throws(() => ask({ question: "again?", id: "q1" }), QuestionIdInUse);
  assert.equal(tracker.pending.length, 3);
  assert.throws(() => tracker.answer("c", "q1"), AnswerNotAnOption);
  assert.equal(tracker.answer("a", "q1"), '{"answer":"a","in_reply_to":"q1"}');
  assert.throws(() => tracker.answer("a", "q1"), (error) => error instanceof UnknownQuestion && /already answered/.test(error.message));
  assert.equal(tracker.answer("one"), '{"answer":"one","in_reply_to":null}');
  assert.equal(tracker.answer("two"), '{"answer":"two","in_reply_to":null}');
  assert.throws(() => tracker.answer("three"), UnknownQuestion);
  assert.equal(tracker.feed(parseSignal(`${SIGNAL_PREFIX}COMPLETED`)), null);
});

test("replies: formatReply checks the reply schema, parseReply never throws", () => {
  assert.throws(() => formatReply(3), SignalPayloadError);
  assert.throws(() => formatReply("yes", ""), (error) => error.errors[0].rule === "minLength");
  assert.deepEqual(parseReply('{"in_reply_to":"q","answer":"x"}\r\n'), { in_reply_to: "q", answer: "x" });
  for (const bad of ['{"answer":"x"}', '{"answer":"x","in_reply_to":null,"more":1}', '{"answer":1,"in_reply_to":null}', "yes", null, 7]) {
    assert.equal(parseReply(bad), null);
  }
  fc.assert(fc.property(fc.anything(), (value) => { parseReply(value); }), RUNS);
});

function ajvFor(name) {
  const schemaFile = join(FOLDER, "..", "..", "schema", name);
  return new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(
    JSON.parse(readFileSync(schemaFile, "utf8")),
  );
}

test("validateReply and parseReply agree with Ajv (draft 2020-12) on the reply schema", () => {
  const validate = ajvFor("reply.schema.json");
  const member = fc.oneof(text, fc.constant(""), fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]));
  const reply = fc.record(
    { answer: member, in_reply_to: member, extra: member },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(reply, (value) => {
      const errors = binding.validateReply(value);
      assert.equal(errors.length === 0, validate(value), JSON.stringify(value));
      assert.equal(parseReply(JSON.stringify(value)) !== null, validate(value));
    }),
    RUNS,
  );
});

test("validatePayload gives Ajv's (draft 2020-12) verdict for every kind's schema", () => {
  const member = fc.oneof(
    text,
    fc.constantFrom("", "1.1.0", "1.2.3-rc.1+b", "x.y", ".sdd/plans/a.md", ".sdd/../x", "/abs", "a"),
    fc.constant(null),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.array(fc.oneof(text, fc.constantFrom("a", "b", ""), fc.integer()), { maxLength: 4 }),
    fc.dictionary(key, fc.oneof(text, fc.integer()), { maxKeys: 2, noNullPrototype: true }),
  );
  for (const kind of SIGNAL_KINDS) {
    const validate = ajvFor(`${kind.toLowerCase()}.schema.json`);
    const schema = JSON.parse(readFileSync(join(FOLDER, "..", "..", "schema", `${kind.toLowerCase()}.schema.json`), "utf8"));
    const names = [...Object.keys(schema.properties ?? {}), "extra"];
    const payloadArb = fc.dictionary(fc.constantFrom(...names), member, { maxKeys: names.length, noNullPrototype: true });
    const examples = fc.constantFrom(...(schema.examples ?? [{}]));
    const mixed = fc.tuple(examples, payloadArb).map(([example, changes]) => ({ ...example, ...changes }));
    fc.assert(
      fc.property(fc.oneof(payloadArb, mixed, examples), (value) => {
        const errors = binding.validatePayload(kind, value);
        assert.equal(errors.length === 0, validate(value), `${kind} ${JSON.stringify(value)} ${errors.map(String)}`);
      }),
      RUNS,
    );
  }
  assert.throws(() => binding.validatePayload("DONE", {}), (error) => error.code === "unknown-kind");
  assert.deepEqual(binding.validatePayload("COMPLETED", []).map((e) => [e.pointer, e.rule]), [["", "type"]]);
});

test("unknownKinds: a well-formed line of a kind the vocabulary does not know", async () => {
  const line = `${SIGNAL_PREFIX}PROGRESS_2 {"done":3}`;
  assert.equal(parseSignal(line), null);
  const signal = parseSignal(line, { unknownKinds: true });
  assert.deepEqual(signal, { kind: "PROGRESS_2", payload: { done: 3 }, rawLine: line, isTerminal: false, unknownKind: true });
  assert.equal(parseSignal(`${SIGNAL_PREFIX}progress`, { unknownKinds: true }), null);
  assert.equal(parseSignal(`${SIGNAL_PREFIX}NEW {`, { unknownKinds: true }), null);
  assert.equal(parseSignal(`${SIGNAL_PREFIX}COMPLETED`, { unknownKinds: true }).unknownKind, undefined);
  assert.equal(parseSignal(`  ${SIGNAL_PREFIX} NEW `, { unknownKinds: true, lenient: true }).kind, "NEW");
  const records = await collect(readSignals([`${line}\n${SIGNAL_PREFIX}COMPLETED\n`], { unknownKinds: true }));
  assert.deepEqual(records.map((r) => [r.lineNo, r.signal.kind]), [[1, "PROGRESS_2"], [2, "COMPLETED"]]);
  assert.notEqual(checkTerminalSignal([signal], { runId: "r" }), null);
});

test("iterSignals filters lines, and refuses one string", () => {
  const lines = ["log", `${SIGNAL_PREFIX}COMPLETED`, new TextEncoder().encode(`${SIGNAL_PREFIX}FAILED {}\n`), 7];
  assert.deepEqual([...binding.iterSignals(lines)].map((signal) => signal.kind), ["COMPLETED", "FAILED"]);
  assert.deepEqual([...binding.iterSignals([` ${SIGNAL_PREFIX}COMPLETED `], { lenient: true })].length, 1);
  assert.throws(() => [...binding.iterSignals(`${SIGNAL_PREFIX}COMPLETED`)], TypeError);
});

test("checkTerminalSignal reads lines, signals and records", () => {
  assert.equal(checkTerminalSignal([`${SIGNAL_PREFIX}FAILED {"reason":"x"}`], { runId: "r" }), null);
  assert.equal(checkTerminalSignal([parseSignal(`${SIGNAL_PREFIX}COMPLETED`)], { runId: "r" }), null);
  const missing = checkTerminalSignal(["BERNSTEIN:QUESTION {}", "COMPLETED"], { runId: "r" });
  assert.equal(missing.runId, "r");
  assert.throws(() => checkTerminalSignal("BERNSTEIN:COMPLETED", { runId: "r" }), TypeError);
});

// The Node entry (node.js: the fence's process steps) is the one module the index leaves out.
const NODE_ENTRY = "node";

test("the index exports at run time exactly what the declarations declare", () => {
  const declared = new Set();
  for (const name of readdirSync(FOLDER).filter((file) => file.endsWith(".d.ts") && file !== `${NODE_ENTRY}.d.ts`)) {
    const text = readFileSync(join(FOLDER, name), "utf8");
    for (const found of text.matchAll(/^export declare (?:const|function|class) (\w+)/gm)) declared.add(found[1]);
  }
  assert.deepEqual(Object.keys(binding).sort(), [...declared].sort());
});

test("the package's modules import nothing but each other: no Node-only module", () => {
  for (const name of readdirSync(FOLDER).filter((file) => file.endsWith(".js") && file !== `${NODE_ENTRY}.js`)) {
    const text = readFileSync(join(FOLDER, name), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    for (const found of text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"/g)) {
      const target = found[1] ?? found[2];
      assert.match(target, /^\.\/[\w-]+\.js$/, `${name} imports ${target}`);
      assert.notEqual(target, `./${NODE_ENTRY}.js`, `${name} imports the Node entry`);
    }
    const code = text.replace(/"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""'); // names, not texts
    assert.doesNotMatch(code, /\b(?:require|process|Buffer)\b/, name);
  }
});

test("the Node entry is exported on its own, and imports only Node's modules and the package's", () => {
  const manifest = JSON.parse(readFileSync(join(FOLDER, "package.json"), "utf8"));
  assert.deepEqual(manifest.exports[`./${NODE_ENTRY}`], { types: `./${NODE_ENTRY}.d.ts`, default: `./${NODE_ENTRY}.js` });
  const text = readFileSync(join(FOLDER, `${NODE_ENTRY}.js`), "utf8");
  for (const found of text.matchAll(/\bfrom\s+"([^"]+)"/g)) assert.match(found[1], /^(?:node:\w+|\.\/[\w-]+\.js)$/, found[1]);
});
