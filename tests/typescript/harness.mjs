// One long-running Node process for the differential tests: a JSON request per stdin line,
// a JSON answer per stdout line. Values cross as tagged trees so that no number changes on
// the way: ["i", digits], ["f", repr], ["s", text], ["b", bool], ["n"], ["a", items],
// ["o", [[key, value], ...]] in; ["num", String(value)] and ["int", digits] out.
import { createInterface } from "node:readline";
import { join } from "node:path";
import { fromTagged } from "./tagged.mjs";

const binding = await import(join(process.env.BERNSTEIN_TS_BINDING, "index.js"));

function toTagged(value) {
  if (value === null) return ["n"];
  if (typeof value === "bigint") return ["int", value.toString()];
  if (typeof value === "number") return ["num", Object.is(value, -0) ? "-0" : String(value)];
  if (typeof value === "string") return ["s", value];
  if (typeof value === "boolean") return ["b", value];
  if (Array.isArray(value)) return ["a", value.map(toTagged)];
  return ["o", Object.keys(value).map((key) => [key, toTagged(value[key])])];
}

function signalOut(signal) {
  if (signal === null) return null;
  const out = { kind: signal.kind, payload: toTagged(signal.payload), rawLine: signal.rawLine };
  return { ...out, unknownKind: signal.unknownKind === true, isTerminal: signal.isTerminal };
}

async function answer(request) {
  switch (request.op) {
    case "format":
      try {
        const payload = request.payload === null ? null : fromTagged(request.payload);
        return { line: binding.formatSignal(request.kind, payload, { validate: request.validate }) };
      } catch (error) {
        return { error: error instanceof binding.SignalFormatError ? error.code : `untyped ${error}` };
      }
    case "validate": {
      const errors = binding.validatePayload(request.kind, fromTagged(request.payload));
      return { errors: errors.map((e) => [e.pointer, e.rule, e.message, e.detail]) };
    }
    case "suite": {
      const { check } = await import(request.module);
      return { results: request.cases.map((data) => check(fromTagged(data)).map((e) => [e.pointer, e.rule, e.message, e.detail])) };
    }
    case "validate-shape": {
      const items = Array.from({ length: request.count }, (_, index) => (request.distinct ? `${request.unit}${index}` : request.unit));
      const payload = { ...request.base, [request.field]: items };
      return { errors: binding.validatePayload(request.kind, payload).length };
    }
    case "parse":
      return { signal: signalOut(binding.parseSignal(request.line, { lenient: request.lenient, unknownKinds: request.unknownKinds })) };
    case "parse-bytes":
      return { signal: signalOut(binding.parseSignal(Buffer.from(request.hex, "hex"), { lenient: request.lenient })) };
    case "read": {
      const bytes = Buffer.from(request.hex, "hex");
      const scanner = new binding.SignalScanner({ maxLineBytes: request.limit, unknownKinds: request.unknownKinds });
      const records = [];
      let at = 0;
      for (const cut of [...request.cuts, bytes.length]) {
        records.push(...scanner.feed(bytes.subarray(at, Math.max(at, cut))));
        at = Math.max(at, cut);
      }
      records.push(...scanner.close());
      const shown = records.map((r) => [r.lineNo, r.signal.kind, Buffer.from(r.raw).toString("hex")]);
      return { records: shown, lines: scanner.lines };
    }
    case "reply": {
      const reply = binding.parseReply(request.line);
      return { reply: reply === null ? null : toTagged(reply) };
    }
    case "time": {
      const line = request.head + request.unit.repeat(request.count) + request.tail;
      return { signal: signalOut(binding.parseSignal(line, { lenient: request.lenient })) };
    }
    default:
      return { error: `unknown op ${request.op}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  process.stdout.write(`${JSON.stringify(await answer(JSON.parse(line)))}\n`);
}
