import type { SignalRecord, StreamSignal } from "./signals.js";

/** What the terminal checks read: lines, parsed signals or records, mixed freely. */
export type RunItem = string | Uint8Array | StreamSignal | SignalRecord;

/** A run ended without a terminal signal: reported, not thrown. */
export declare class MissingTerminalSignal extends Error {
  constructor(runId: string);
  readonly runId: string;
}

/** Whether `items` hold a terminal signal. */
export declare function hasTerminalSignal(
  items: Iterable<RunItem>,
  options?: { readonly lenient?: boolean },
): boolean;

/** The warning for a run whose `items` hold no terminal signal, else null. */
export declare function checkTerminalSignal(
  items: Iterable<RunItem>,
  options: { readonly runId: string; readonly lenient?: boolean },
): MissingTerminalSignal | null;
