// An adapter's start-up under the fence, as a Node adapter writes it: take the key from
// the environment or the socket BERNSTEIN_SIGNAL_KEY_FD names (takeNodeProcessKey, from the
// package's Node entry: a process that cannot take the key it was told of writes FAILED
// and exits), then start a child and report what it inherited. Run by
// test_typescript_fence.py; prints one JSON line.
import { spawnSync } from "node:child_process";
import { fstatSync } from "node:fs";
import { join } from "node:path";

const { takeNodeProcessKey } = await import(join(process.env.BERNSTEIN_TS_BINDING, "node.js"));

const fd = process.env.BERNSTEIN_SIGNAL_KEY_FD;
const key = takeNodeProcessKey();
let descriptor = "closed";
try {
  if (fd !== undefined) fstatSync(Number(fd));
  descriptor = fd === undefined ? "none" : "open";
} catch {
  // EBADF: the descriptor is gone
}
const probe = `env; if [ -e /proc/$$/fd/${fd ?? 3} ]; then echo child-fd-open; else echo child-fd-closed; fi`;
const child = spawnSync("sh", ["-c", probe], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
process.stdout.write(`${JSON.stringify({ run: key?.run ?? null, descriptor, child: child.stdout })}\n`);
