// The README's Node recipe for reading the key descriptor (takeProcessKey's readDescriptor),
// kept byte for byte equal to the README's code by test_typescript_fence.py and used by the
// Node adapters of the tests: bounded, non-blocking, and limited by KEY_READ_SECONDS.
import { closeSync, constants, openSync, readSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const BINDING = process.env.BERNSTEIN_TS_BINDING ?? join(HERE, "..", "..", "generated", "typescript");
const { KEY_READ_SECONDS } = await import(join(BINDING, "index.js"));

// README recipe begins
// The key line from descriptor fd: at most 81 bytes and "\n", never waiting past
// KEY_READ_SECONDS for a writer that does not close (a throw: one warning, no key).
export function readDescriptor(fd) {
  const file = openSync(`/proc/self/fd/${fd}`, constants.O_RDONLY | constants.O_NONBLOCK);
  closeSync(fd); // a fresh open file: O_NONBLOCK does not reach the writer's end
  const buffer = new Uint8Array(82);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + KEY_READ_SECONDS * 1000;
  let length = 0;
  try {
    while (length < buffer.length && !buffer.subarray(0, length).includes(10)) {
      let got = -1;
      try {
        got = readSync(file, buffer, length, buffer.length - length, null);
      } catch (error) {
        if (error.code !== "EAGAIN") throw error;
      }
      if (got === 0) break; // end of file
      if (got > 0) length += got;
      else if (Date.now() >= deadline) throw Object.assign(new Error("timed out"), { code: "ETIMEDOUT" });
      else Atomics.wait(pause, 0, 0, 10); // a 10 ms sleep that blocks nothing else
    }
  } finally {
    closeSync(file);
  }
  const text = new TextDecoder().decode(buffer.subarray(0, length));
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end + 1);
}
// README recipe ends
