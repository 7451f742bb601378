// readSignals of the TypeScript binding against a naive Node loop (readline + startsWith +
// JSON.parse), both over a file stream of the same corpus, in this one process; best of
// several alternating turns. Usage: node bench_typescript.mjs BINDING_DIR CORPUS TURNS.
import { createReadStream, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [bindingDir, corpus, turnsText] = process.argv.slice(2);
const { SIGNAL_PREFIX, readSignals } = await import(join(bindingDir, "index.js"));
const CHUNK = 1 << 20;

async function binding() {
  let count = 0;
  for await (const record of readSignals(createReadStream(corpus, { highWaterMark: CHUNK }))) {
    if (record.signal.kind) count += 1;
  }
  return count;
}

async function naive() {
  let count = 0;
  const lines = createInterface({ input: createReadStream(corpus, { highWaterMark: CHUNK }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.startsWith(SIGNAL_PREFIX)) continue;
    const space = line.indexOf(" ");
    if (space >= 0) {
      try {
        JSON.parse(line.slice(space + 1));
      } catch {
        continue;
      }
    }
    count += 1;
  }
  return count;
}

async function best(run, turns) {
  let fastest = Infinity;
  let found = 0;
  for (let turn = 0; turn < turns; turn++) {
    const start = process.hrtime.bigint();
    found = await run();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return { seconds: fastest, found };
}

const turns = Number(turnsText);
await binding();
await naive();
const results = { bytes: statSync(corpus).size };
for (let round = 0; round < 2; round++) {
  results.readSignals = await best(binding, turns);
  results.naive = await best(naive, turns);
}
process.stdout.write(`${JSON.stringify(results)}\n`);
