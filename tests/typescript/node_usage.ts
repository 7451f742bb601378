// Type-checks the Node entry (bernstein-signals/node) as an adapter and an orchestrator use it.
import { spawnWithKey, takeNodeProcessKey, readKeyDescriptor } from "../../generated/typescript/node.js";
import { SignalKey, SignalMarker } from "../../generated/typescript/index.js";
import type { ChildProcess } from "node:child_process";

const taken: SignalKey | null = takeNodeProcessKey();
const fromEnv: SignalKey | null = takeNodeProcessKey({ BERNSTEIN_SIGNAL_KEY: "x" });
const text: string = readKeyDescriptor(3);
const key = SignalKey.generate();
const child: ChildProcess = spawnWithKey("./adapter.sh", ["--flag"], key, { stdio: ["pipe", "pipe", "inherit"] });
// @ts-expect-error the key is a SignalKey, not its text
spawnWithKey("./adapter.sh", [], key.text());
// @ts-expect-error the arguments are a list
spawnWithKey("./adapter.sh", "--flag", key);
export const used = [taken, fromEnv, text, child, taken && new SignalMarker(taken)];
