// An adapter's start-up under the fence, as a Node adapter writes it: take the key from
// the environment or descriptor 3 (the README's bounded, deadline-limited recipe reads and
// closes it), then start a child and report what it inherited. Run by
// test_typescript_fence.py; prints one JSON line.
import { spawnSync } from "node:child_process";
import { fstatSync } from "node:fs";
import { join } from "node:path";

import { readDescriptor } from "./fence_key_descriptor.mjs";

const { takeProcessKey } = await import(join(process.env.BERNSTEIN_TS_BINDING, "index.js"));

const warnings = [];
const key = takeProcessKey(process.env, { readDescriptor, warn: (line) => warnings.push(line) });
let fd3 = "closed";
try {
  fstatSync(3);
  fd3 = "open";
} catch {
  // EBADF: the descriptor is gone
}
const child = spawnSync("sh", ["-c", "env; if [ -e /proc/$$/fd/3 ]; then echo child-fd3-open; else echo child-fd3-closed; fi"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
process.stdout.write(`${JSON.stringify({ run: key?.run ?? null, warnings, fd3, child: child.stdout })}\n`);
