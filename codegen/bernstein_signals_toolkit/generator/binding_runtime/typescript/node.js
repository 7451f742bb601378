/**
 * The fence's process steps for Node (import "bernstein-signals/node"): taking the key
 * at an adapter's start-up, and handing a key to an adapter an orchestrator starts. The
 * key travels on a socket only: /proc/PID/fd/N reopens a pipe or a file for any process
 * of the same user, which could read the key or swap in its own first; a socket it
 * cannot reopen. The package's index imports no Node module; this entry does.
 */
import { spawn } from "node:child_process";
import { fstatSync, readSync, writeSync } from "node:fs";
import { Socket } from "node:net";
import { failed } from "./constructors.js";
import { FenceError, SignalKey, takeProcessKey } from "./fence.js";
import {
  KEY_EXPOSED,
  KEY_FD_MAX,
  KEY_FD_MIN,
  KEY_FD_VARIABLE,
  KEY_READ_SECONDS,
  KEY_REFUSED_STATUS,
  KEY_VARIABLE,
  RUN_HEX_DIGITS,
  SECRET_HEX_DIGITS,
} from "./fence_rules.js";

/** The key text's length: the read stops there (and at one "\n"). */
const KEY_BYTES = RUN_HEX_DIGITS + 1 + SECRET_HEX_DIGITS;

function channelProblem(fd) {
  const status = fstatSync(fd);
  if (status.isSocket()) return null;
  if (status.isFIFO()) return `a pipe, ${KEY_EXPOSED}`;
  if (status.isFile()) return `a file, ${KEY_EXPOSED}`;
  return "not a socket";
}

/**
 * takeProcessKey's readDescriptor: the key line on socket `fd`, which is closed after. At
 * most the key's 81 bytes and "\n"; gives up after KEY_READ_SECONDS in all (a FenceError)
 * when the writer neither writes a line nor closes. The socket is made non-blocking
 * through a net.Socket on the descriptor, so the wait blocks nothing else.
 */
export function readKeyDescriptor(fd) {
  const problem = channelProblem(fd);
  if (problem !== null) {
    throw new FenceError(`${KEY_FD_VARIABLE} names fd ${fd}, ${problem}`, "bad-key");
  }
  const handle = new Socket({ fd, readable: false, writable: false }); // sets O_NONBLOCK
  const buffer = new Uint8Array(KEY_BYTES + 1);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + KEY_READ_SECONDS * 1000;
  let length = 0;
  try {
    while (length < buffer.length && !buffer.subarray(0, length).includes(10)) {
      let got = -1;
      try {
        got = readSync(fd, buffer, length, buffer.length - length, null);
      } catch (error) {
        if (error?.code !== "EAGAIN") throw error;
      }
      if (got === 0) break; // the writer closed its end
      if (got > 0) length += got;
      else if (Date.now() >= deadline) {
        throw new FenceError(
          `${KEY_FD_VARIABLE} names fd ${fd}, which gave no whole key within ${KEY_READ_SECONDS} s (its writer did not close it)`,
          "bad-key",
        );
      } else Atomics.wait(pause, 0, 0, 10); // a 10 ms sleep
    }
  } finally {
    handle.destroy(); // closes fd
  }
  const text = new TextDecoder().decode(buffer.subarray(0, length));
  const end = text.indexOf("\n");
  return end < 0 ? text : text.slice(0, end + 1);
}

/**
 * An adapter's start-up step: takeProcessKey over process.env with readKeyDescriptor. A
 * process told to expect a key that gives none stops: one line on stderr, an unmarked
 * FAILED saying why on stdout, exit status KEY_REFUSED_STATUS. Call it once, first thing.
 */
export function takeNodeProcessKey(env = process.env) {
  try {
    return takeProcessKey(env, { readDescriptor: readKeyDescriptor });
  } catch (error) {
    if (!(error instanceof FenceError)) throw error;
    writeSync(2, `bernstein-signals: ${error.message}\n`);
    writeSync(1, `${failed({ reason: error.message })}\n`);
    process.exit(KEY_REFUSED_STATUS);
  }
}

function stdioSlots(stdio) {
  if (stdio === undefined) return ["pipe", "pipe", "pipe"];
  if (typeof stdio === "string") return [stdio, stdio, stdio];
  if (!Array.isArray(stdio)) throw new TypeError("spawnWithKey: stdio is a string or an array");
  const slots = [...stdio];
  while (slots.length < KEY_FD_MIN) slots.push("pipe");
  return slots;
}

/**
 * child_process.spawn(command, args, options) that hands `key` to the process on a socket
 * (the first descriptor past options.stdio, KEY_FD_MIN at least), named by
 * BERNSTEIN_SIGNAL_KEY_FD; BERNSTEIN_SIGNAL_KEY is removed from its environment
 * (options.env, or process.env). The key is written and the socket closed at once.
 */
export function spawnWithKey(command, args, key, options = {}) {
  if (!(key instanceof SignalKey)) throw new TypeError("spawnWithKey hands over a SignalKey");
  const stdio = stdioSlots(options.stdio);
  const slot = stdio.length;
  if (slot > KEY_FD_MAX) {
    throw new RangeError(`spawnWithKey: the key's descriptor would be ${slot}, past ${KEY_FD_MAX}`);
  }
  stdio.push("pipe"); // libuv makes every "pipe" a socketpair
  const env = { ...(options.env ?? process.env), [KEY_FD_VARIABLE]: String(slot) };
  delete env[KEY_VARIABLE];
  const child = spawn(command, args, { ...options, env, stdio });
  const channel = child.stdio[slot];
  if (channel) {
    channel.on("error", () => {}); // a process that never started: its error is the child's
    channel.end(`${key.text()}\n`);
  }
  return child;
}
