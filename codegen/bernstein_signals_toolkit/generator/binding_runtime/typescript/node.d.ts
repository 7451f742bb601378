import type { ChildProcess, SpawnOptions } from "node:child_process";
import type { SignalKey } from "./fence.js";

/** takeProcessKey's readDescriptor for a socket (the only channel a key is taken from). */
export declare function readKeyDescriptor(fd: number): string;

/**
 * takeProcessKey over process.env (or `env`); a process told to expect a key that gives
 * none writes an unmarked FAILED saying why and exits with KEY_REFUSED_STATUS.
 */
export declare function takeNodeProcessKey(env?: Record<string, string | undefined>): SignalKey | null;

/** child_process.spawn that hands `key` to the process on a socket named by BERNSTEIN_SIGNAL_KEY_FD. */
export declare function spawnWithKey(
  command: string,
  args: readonly string[],
  key: SignalKey,
  options?: SpawnOptions,
): ChildProcess;
