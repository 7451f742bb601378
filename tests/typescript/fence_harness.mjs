// One long-running Node process for the fence's differential tests (test_typescript_fence.py):
// a JSON request per stdin line, a JSON answer per stdout line. Payloads come in as the
// tagged trees of harness.mjs (["i", digits], ["f", repr], ["s", text], ["b", bool], ["n"],
// ["a", items], ["o", [[key, value], ...]]) so that no number changes on the way; accepted
// payloads go out as their canonical text, which the Python side compares with its own.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { fromTagged } from "./tagged.mjs";

const FOLDER = process.env.BERNSTEIN_TS_BINDING;
const binding = await import(join(FOLDER, "index.js"));
const { dumpCanonical } = await import(join(FOLDER, "_json.js"));

function verdictOut(verdict) {
  const { signal, code, problem, seq } = verdict;
  if (signal === null) return { code, problem, seq, kind: null, payload: null, rawLine: null };
  return { code, problem, seq, kind: signal.kind, payload: dumpCanonical(signal.payload), rawLine: signal.rawLine };
}

const TIMING_KEY = binding.SignalKey.parse(`${"1".repeat(16)}:${"2".repeat(64)}`);

/** A payload of `count` units in the shape `shape`: the untrusted input the timing grows. */
function timingPayload(shape, count) {
  switch (shape) {
    case "long-string":
      return { reason: "a".repeat(count) };
    case "escapes":
      return { reason: "\u2028\"\\".repeat(count) };
    case "keys-before-mark": {
      const payload = { reason: "r" };
      for (let index = 0; index < count; index++) payload[`A${index}`] = index;
      return payload;
    }
    case "big-integers":
      return { reason: "r", n: Array.from({ length: count }, () => 2n ** 64n) };
    default:
      throw new Error(`unknown shape ${shape}`);
  }
}

/** Checks (verifier) or reads (readSignals with the key) input that grows with `count`. */
async function timing(request) {
  const marker = new binding.SignalMarker(TIMING_KEY);
  if (request.shape === "stream") {
    const line = `${marker.mark("FAILED", { reason: "r" })}\nplain output\n`;
    const chunks = [];
    for (let index = 0; index < request.count; index++) chunks.push(marker.mark("QUESTION", { question: "q" }), "\nplain\n", line);
    let seen = 0;
    const options = { key: TIMING_KEY, onRejected: () => (seen += 1) };
    for await (const record of binding.readSignals([chunks.join("")], options)) if (record.signal) seen += 1;
    return { seen };
  }
  let line = marker.mark("FAILED", timingPayload(request.shape, request.count));
  if (request.forged) line = line.replace(/\.([0-9a-f])/, (_, digit) => `.${digit === "0" ? "1" : "0"}`);
  const verdict = new binding.FenceVerifier(TIMING_KEY).check(line);
  return { code: verdict.code, problem: verdict.problem };
}

/** What a reader made of a line: [lineNo, code, problem, seq, kind, payload, rawLine]. */
function itemOut(lineNo, verdict) {
  const { code, problem, seq, kind, payload, rawLine } = verdictOut(verdict);
  return [lineNo, code, problem, kind === null ? seq : null, kind, payload, rawLine];
}

/** The fence options of a request (none: an unfenced read), the rejections collected into `items`. */
function readOptions(request, items) {
  if (request.key === null && request.allowKinds === null) return {};
  const key = request.key === null ? null : binding.SignalKey.parse(request.key);
  return { key, allowKinds: request.allowKinds, onRejected: (verdict) => items.push(itemOut(verdict.lineNo, verdict)) };
}

/** Records and rejections by line: a chunk's rejections come during feed, its records after. */
function inLineOrder(items) {
  return items.sort((left, right) => left[0] - right[0]);
}

function recordOut(items, record) {
  items.push(itemOut(record.lineNo, { signal: record.signal, code: null, problem: null, seq: null }));
}

/** Every public verdict path on the same lines, each with a fresh verifier: check, SignalScanner, readSignals. */
async function paths(request) {
  const lines = request.lines.map((hex) => Buffer.from(hex, "hex"));
  const key = request.key === null ? null : binding.SignalKey.parse(request.key);
  const verifier = new binding.FenceVerifier(key, { allowKinds: request.allowKinds });
  const check = [];
  lines.forEach((line, index) => {
    const verdict = verifier.check(line);
    if (verdict.signal !== null || verdict.code !== null) check.push(itemOut(index + 1, verdict));
  });
  const scanner = [];
  const scanning = new binding.SignalScanner(readOptions(request, scanner));
  for (const line of lines) for (const record of scanning.feed(line)) recordOut(scanner, record);
  for (const record of scanning.close()) recordOut(scanner, record);
  const read = [];
  for await (const record of binding.readSignals([Buffer.concat(lines)], readOptions(request, read))) recordOut(read, record);
  return { check, scanner: inLineOrder(scanner), read: inLineOrder(read) };
}

/** The records and rejections of reading `chunks` (strings or byte arrays) with readSignals or a SignalScanner. */
async function readOf(request, chunks, how) {
  const items = [];
  if (how === "scanner") {
    const scanner = new binding.SignalScanner(readOptions(request, items));
    for (const chunk of chunks) for (const record of scanner.feed(chunk)) recordOut(items, record);
    for (const record of scanner.close()) recordOut(items, record);
  } else {
    for await (const record of binding.readSignals(chunks, readOptions(request, items))) recordOut(items, record);
  }
  return inLineOrder(items);
}

/**
 * `text` read as one string chunk, as its UTF-8 bytes, and split into string chunks: at
 * every code unit (two chunks), at each of `cuts` at once, and one code unit per chunk,
 * by readSignals and by a SignalScanner. The splits whose reading differs come back.
 */
async function split(request) {
  const { text } = request;
  const whole = await readOf(request, [text], "read");
  const bytes = await readOf(request, [new TextEncoder().encode(text)], "read");
  const splits = [];
  for (let index = 0; index <= text.length; index++) splits.push([index]);
  splits.push(request.cuts, Array.from({ length: text.length }, (_, index) => index));
  const differing = [];
  for (const cuts of splits) {
    const points = [...new Set(cuts)].filter((cut) => cut >= 0 && cut <= text.length).sort((a, b) => a - b);
    const chunks = [];
    let from = 0;
    for (const cut of points) {
      chunks.push(text.slice(from, cut));
      from = cut;
    }
    chunks.push(text.slice(from));
    for (const how of ["read", "scanner"]) {
      const items = await readOf(request, chunks, how);
      if (JSON.stringify(items) !== JSON.stringify(whole)) differing.push({ how, cuts: points, items });
      if (differing.length >= 3) return { whole, bytes, differing };
    }
  }
  return { whole, bytes, differing };
}

function answer(request) {
  switch (request.op) {
    case "mark": {
      const marker = new binding.SignalMarker(binding.SignalKey.parse(request.key));
      marker._seq = request.seq - 1; // mark at the request's sequence number
      try {
        const payload = request.payload === null ? null : fromTagged(request.payload);
        return { line: marker.mark(request.kind, payload) };
      } catch (error) {
        return { error: error instanceof binding.SignalFormatError || error instanceof binding.FenceError ? error.code : `untyped ${error}` };
      }
    }
    case "check": {
      const key = request.key === null ? null : binding.SignalKey.parse(request.key);
      const verifier = new binding.FenceVerifier(key, { allowKinds: request.allowKinds });
      const lines = request.lines.map((hex) => Buffer.from(hex, "hex"));
      return { verdicts: lines.map((line) => verdictOut(verifier.check(line))) };
    }
    case "time":
      return timing(request);
    case "paths":
      return paths(request);
    case "api": {
      const names = Object.getOwnPropertyNames(binding.FenceVerifier.prototype);
      const methods = names.filter((name) => {
        const found = Object.getOwnPropertyDescriptor(binding.FenceVerifier.prototype, name);
        return name !== "constructor" && !name.startsWith("_") && typeof found.value === "function";
      });
      return { methods };
    }
    case "split":
      return split(request);
    case "rules":
      return import(join(FOLDER, "fence_rules.js")).then((rules) => ({ rules: { ...rules } }));
    default:
      return { error: `unknown op ${request.op}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let reply;
  try {
    reply = await answer(JSON.parse(line));
  } catch (error) {
    reply = { error: `harness: ${error}` };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
