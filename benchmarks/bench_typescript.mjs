// readSignals of the TypeScript binding against a naive Node loop (readline + startsWith +
// JSON.parse), both over a file stream of the same corpus, in this one process; best of
// several alternating turns. Usage: node bench_typescript.mjs BINDING_DIR CORPUS TURNS [fence].
// With "fence" it also measures the fence (issue 17), after the figures above and apart
// from them: SignalMarker.mark vs formatSignal over the corpus's signals, readSignals with
// the key over the corpus with every signal marked vs readSignals over the same file
// unfenced and over the unmarked corpus, and FenceVerifier.check vs parseSignal per line.
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [bindingDir, corpus, turnsText, mode] = process.argv.slice(2);
const bindingModule = await import(join(bindingDir, "index.js"));
const { SIGNAL_PREFIX, readSignals } = bindingModule;
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

async function timed(run, turns) {
  return (await best(async () => run(), turns)).seconds;
}

async function count(path, options) {
  let found = 0;
  for await (const record of readSignals(createReadStream(path, { highWaterMark: CHUNK }), options)) {
    if (record.signal.kind) found += 1;
  }
  return found;
}

/** The fence's figures: seconds of each side, and each fenced/unfenced time ratio. */
async function fence(turns) {
  const { FenceVerifier, SignalKey, SignalMarker, formatSignal, parseSignal } = bindingModule;
  const { readFileSync } = await import("node:fs");
  const key = SignalKey.generate();
  const lines = readFileSync(corpus, "utf8").split("\n");
  const parts = [];
  const marker = new SignalMarker(key);
  const marked = lines.map((line) => {
    const signal = line.startsWith(SIGNAL_PREFIX) ? parseSignal(line) : null;
    if (signal === null) return line;
    const payload = line.trimEnd().endsWith("}") ? signal.payload : null;
    parts.push([signal.kind, payload]);
    return marker.mark(signal.kind, payload, { validate: false });
  });
  const folder = mkdtempSync(join(tmpdir(), "bench-fence-"));
  const markedFile = join(folder, "marked.txt");
  writeFileSync(markedFile, marked.join("\n"));
  const signalLines = marked.filter((line) => line.startsWith(SIGNAL_PREFIX));
  try {
    const figures = {
      signals: parts.length,
      formatSignal: await timed(() => parts.forEach(([kind, payload]) => formatSignal(kind, payload, { validate: false })), turns),
      mark: await timed(() => {
        const writer = new SignalMarker(key);
        parts.forEach(([kind, payload]) => writer.mark(kind, payload, { validate: false }));
      }, turns),
      parseSignal: await timed(() => signalLines.forEach((line) => parseSignal(line)), turns),
      check: await timed(() => {
        const verifier = new FenceVerifier(key);
        signalLines.forEach((line) => verifier.check(line));
      }, turns),
      readUnmarked: await timed(() => count(corpus, {}), turns),
      readMarked: await timed(() => count(markedFile, {}), turns),
      readFenced: await timed(() => count(markedFile, { key }), turns),
    };
    figures.accepted = await count(markedFile, { key });
    return figures;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const turns = Number(turnsText);
await binding();
await naive();
const results = { bytes: statSync(corpus).size };
for (let round = 0; round < 2; round++) {
  results.readSignals = await best(binding, turns);
  results.naive = await best(naive, turns);
}
if (mode === "fence") results.fence = await fence(turns);
process.stdout.write(`${JSON.stringify(results)}\n`);
