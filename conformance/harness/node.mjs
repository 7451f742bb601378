// The TypeScript binding's conformance harness: one vector a line on stdin, one answer a line out.
// Run it as `bernstein-signals conformance -- node conformance/harness/node.mjs`.
// Payloads arrive as JSON text; JSON.parse would round integers beyond 2^53, so `readJson`
// below reads an integer token past Number.MAX_SAFE_INTEGER as a bigint (the canonical
// form's rule 6), and `writeJson` writes a bigint as its digits.
import { createInterface } from "node:readline";
import {
  formatReply,
  formatSignal,
  hasTerminalSignal,
  parseReply,
  parseSignal,
  readSignals,
  validatePayload,
} from "../../generated/typescript/index.js";

const TOKEN = /\s*(?:([{}[\],:])|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null))/y;

function readJson(text) {
  let at = 0;
  const next = () => {
    TOKEN.lastIndex = at;
    const match = TOKEN.exec(text);
    if (match === null) throw new SyntaxError(`not JSON at ${at}`);
    at = TOKEN.lastIndex;
    return match;
  };
  const value = (token = next()) => {
    const [, bracket, string, number, literal] = token;
    if (string !== undefined) return JSON.parse(string);
    if (literal !== undefined) return JSON.parse(literal);
    if (number !== undefined) {
      const integral = /^-?\d+$/.test(number);
      const read = Number(number);
      return integral && !Number.isSafeInteger(read) ? BigInt(number) : read;
    }
    if (bracket === "[") {
      const items = [];
      let token = next();
      while (token[1] !== "]") {
        items.push(value(token));
        token = next();
        if (token[1] === ",") token = next();
      }
      return items;
    }
    if (bracket === "{") {
      const members = {};
      let token = next();
      while (token[1] !== "}") {
        const key = JSON.parse(token[2]);
        next(); // the colon
        members[key] = value();
        token = next();
        if (token[1] === ",") token = next();
      }
      return members;
    }
    throw new SyntaxError(`unexpected ${bracket}`);
  };
  return value();
}

function writeJson(value) {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return `[${value.map(writeJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.keys(value).map((key) => `${JSON.stringify(key)}:${writeJson(value[key])}`);
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(value);
}

const payloadOf = (text) => (text === null ? null : readJson(text));

function written(write) {
  try {
    return { line: write() };
  } catch (error) {
    if (typeof error?.code === "string") return { error: error.code };
    throw error;
  }
}

const ANSWERS = {
  line: (vector) => {
    const line = "line_base64" in vector ? Buffer.from(vector.line_base64, "base64") : vector.line;
    const signal = parseSignal(line, { lenient: vector.lenient === true });
    return signal === null
      ? { kind: null, payload: null }
      : { kind: signal.kind, payload: writeJson(signal.payload) };
  },
  format: (vector) => written(() => formatSignal(vector.kind, payloadOf(vector.payload))),
  payload: (vector) => ({
    errors: validatePayload(vector.kind, payloadOf(vector.payload)).map(({ pointer, rule }) => ({
      pointer,
      rule,
    })),
  }),
  "parse-reply": (vector) => {
    const reply = parseReply(vector.line);
    return { reply: reply === null ? null : writeJson(reply) };
  },
  "format-reply": (vector) => written(() => formatReply(vector.answer, vector.in_reply_to)),
  stream: async (vector) => {
    const bytes = Buffer.from(vector.stream_base64, "base64");
    const chunks = [];
    for (let start = 0; start < bytes.length; start += 4096) chunks.push(bytes.subarray(start, start + 4096));
    const records = [];
    for await (const record of readSignals(chunks)) records.push(record);
    return { kinds: records.map((record) => record.signal.kind), terminal: hasTerminalSignal(records) };
  },
};

const ascii = (text) => text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

for await (const request of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const vector = JSON.parse(request);
  const answer = { id: vector.id, ...(await ANSWERS[vector.type](vector)) };
  process.stdout.write(`${ascii(JSON.stringify(answer))}\n`);
}
