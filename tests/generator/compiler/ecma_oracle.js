// The ECMA-262 oracle for tests/generator/compiler/test_ecma_regex.py: one JSON object a line
// on stdin, {"pattern": ..., "inputs": [...]}, answered by one line on stdout:
// {"results": [new RegExp(pattern, "u").test(input), ...]} as Ajv compiles a
// JSON Schema pattern, or {"error": "<SyntaxError message>"}.
"use strict";
const readline = require("readline");

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const request = JSON.parse(line);
  let answer;
  try {
    const regexp = new RegExp(request.pattern, "u");
    answer = { results: request.inputs.map((input) => regexp.test(input)) };
  } catch (error) {
    answer = { error: String(error.message) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
