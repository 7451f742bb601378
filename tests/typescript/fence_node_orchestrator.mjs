// A Node orchestrator, as its author writes it with the binding's Node entry: a fresh key,
// spawnWithKey, and a FenceVerifier over the adapter's stdout. Prints one JSON line: the
// adapter's exit status and each stdout line's verdict. Never the key.
// Usage: node fence_node_orchestrator.mjs BINDING_DIR COMMAND [ARG]...
import { webcrypto } from "node:crypto";
import { join } from "node:path";

const [bindingDir, command, ...args] = process.argv.slice(2);
const { FenceVerifier, SignalKey } = await import(join(bindingDir, "index.js"));
const { spawnWithKey } = await import(join(bindingDir, "node.js"));

const key = SignalKey.generate(webcrypto);
const child = spawnWithKey(command, args, key, { stdio: ["ignore", "pipe", "pipe"] });
const out = [];
const err = [];
child.stdout.on("data", (chunk) => out.push(chunk));
child.stderr.on("data", (chunk) => err.push(chunk));
const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
const verifier = new FenceVerifier(key);
const lines = Buffer.concat(out).toString("utf8").split("\n").filter((line) => line !== "");
const verdicts = lines.map((line) => {
  const verdict = verifier.check(line);
  return { kind: verdict.signal?.kind ?? null, code: verdict.code };
});
process.stdout.write(`${JSON.stringify({ status, verdicts, stderr: Buffer.concat(err).toString("utf8") })}\n`);
