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
