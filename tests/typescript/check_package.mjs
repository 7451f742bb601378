// A generated TypeScript package, checked as a user would meet it: package.json is JSON,
// every .d.ts parses, index.js imports, the prefix and version are the sources' own, and
// every schema example round-trips through its kind's constructor.
// Usage: node check_package.mjs PACKAGE SCHEMA_DIR FACTS_JSON (prefix and version).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const [folder, schemaDir, factsText] = process.argv.slice(2);
const facts = JSON.parse(factsText);
const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
assert.equal(manifest.name, "bernstein-signals");
assert.deepEqual(manifest.dependencies ?? {}, {});
for (const name of readdirSync(folder).filter((file) => file.endsWith(".d.ts"))) {
  const text = readFileSync(join(folder, name), "utf8");
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  assert.deepEqual(source.parseDiagnostics.map((d) => d.messageText), [], name);
}
const binding = await import(join(folder, "index.js"));
assert.equal(binding.SIGNAL_PREFIX, facts.prefix);
assert.equal(binding.VOCABULARY_VERSION, facts.version);
const camel = (kind) => kind.toLowerCase().replace(/_([a-z0-9])/g, (_, next) => next.toUpperCase());
for (const kind of binding.SIGNAL_KINDS) {
  const schema = JSON.parse(readFileSync(join(schemaDir, `${kind.toLowerCase()}.schema.json`), "utf8"));
  const stamps = Object.entries(schema.properties ?? {})
    .filter(([, field]) => field["x-bernstein-role"] === "vocabulary-version")
    .map(([name]) => name);
  for (const example of schema.examples ?? []) {
    const line = binding[camel(kind)](example);
    const signal = binding.parseSignal(line);
    assert.notEqual(signal, null, line);
    assert.equal(signal.kind, kind);
    const expected = { ...example };
    for (const stamp of stamps) if (!(stamp in example)) expected[stamp] = binding.VOCABULARY_VERSION;
    assert.deepEqual(signal.payload, expected);
    assert.ok(line.startsWith(facts.prefix));
  }
}
process.stdout.write("ok\n");
