// A fenced Node adapter (issue 17), written as an adapter author would with the TypeScript
// binding: it takes the key at start-up (takeNodeProcessKey, the package's Node entry: it
// reads and closes the socket), asks one question (id q-1), emits BLOCKED (a copy kept in .sdd/own.log),
// runs the agent on a hostile file and that copy (a replay), and ends COMPLETED when the answer
// is "yes", else FAILED. Without a key it writes unmarked lines.
// Usage: node fence_node_adapter.mjs BINDING_DIR AGENT HOSTILE_FILE
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const [bindingDir, agent, hostile] = process.argv.slice(2);
const { SignalMarker, formatSignal, parseReply } = await import(join(bindingDir, "index.js"));
const { takeNodeProcessKey } = await import(join(bindingDir, "node.js"));

const key = takeNodeProcessKey(); // first thing: the key, or FAILED and exit
const marker = key === null ? null : new SignalMarker(key);
const line = (kind, payload) => (marker === null ? formatSignal(kind, payload) : marker.mark(kind, payload));
const write = (text) => process.stdout.write(`${text}\n`); // a pipe: synchronous on Linux

write(line("QUESTION", { question: "Apply the migration?", options: ["yes", "no"], id: "q-1" }));
const replies = createInterface({ input: process.stdin, crlfDelay: Infinity });
const first = await replies[Symbol.asyncIterator]().next();
replies.close();
process.stdin.destroy();
const answer = first.done ? null : (parseReply(first.value)?.answer ?? null);

const own = line("BLOCKED", { reason: "waiting for the agent" });
mkdirSync(".sdd", { recursive: true });
writeFileSync(".sdd/own.log", `${own}\n`);
write(own);
const ran = spawnSync("sh", [agent, ".sdd/agent.txt", hostile, ".sdd/own.log"], { stdio: ["ignore", "inherit", "inherit"] });
if (ran.status !== 0) throw new Error(`the agent failed: ${ran.status}`);
write(answer === "yes" ? line("COMPLETED") : line("FAILED", { reason: `answer ${answer}` }));
