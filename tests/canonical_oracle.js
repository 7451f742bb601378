// Node's side of tests/test_canonical_form.py: one JSON request a line on stdin,
// one JSON answer a line on stdout (non-ASCII escaped, so no reader splits it).
//   {"doubles": ["<16 hex digits, big-endian IEEE 754>", ...]} -> {"texts": [JSON.stringify(x), ...]}
//   {"keys": ["...", ...]}  -> {"sorted": keys.sort()}   (UTF-16 code unit order)
//   {"json": "<JSON text>"} -> {"canonical": RFC 8785 text of JSON.parse(json), line-safe}
"use strict";
const readline = require("readline");

function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
  const members = Object.keys(value).sort();
  return "{" + members.map((key) => JSON.stringify(key) + ":" + canonical(value[key])).join(",") + "}";
}

const escape = (pattern, text) =>
  text.replace(pattern, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const request = JSON.parse(line);
  let answer;
  if ("doubles" in request) {
    answer = { texts: request.doubles.map((hex) => JSON.stringify(Buffer.from(hex, "hex").readDoubleBE(0))) };
  } else if ("keys" in request) {
    answer = { sorted: request.keys.slice().sort() };
  } else {
    answer = { canonical: escape(/[\u0085\u2028\u2029]/g, canonical(JSON.parse(request.json))) };
  }
  process.stdout.write(escape(/[\u007f-\uffff]/g, JSON.stringify(answer)) + "\n");
});
