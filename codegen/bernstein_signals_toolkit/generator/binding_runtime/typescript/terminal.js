/**
 * Did the run end properly? Every adapter run should emit a terminal signal.
 *
 * Both checks take lines (strings or Uint8Arrays), parsed signals or the records
 * of readSignals, mixed freely. A line is parsed strictly unless `lenient` is set.
 */
import { shown } from "./_shown.js";
import { TERMINAL_SIGNAL_KINDS } from "./kinds.js";
import { parseSignal } from "./parsing.js";

/** A run ended without a terminal signal: reported, not thrown. */
export class MissingTerminalSignal extends Error {
  constructor(runId) {
    super(`run ${shown(runId)} emitted no terminal signal (${TERMINAL_SIGNAL_KINDS.join(" or ")})`);
    this.name = "MissingTerminalSignal";
    this.runId = runId;
  }
}

function isTerminal(item, lenient) {
  if (typeof item === "string" || item instanceof Uint8Array) {
    const signal = parseSignal(item, { lenient });
    return signal !== null && signal.isTerminal;
  }
  if (item !== null && typeof item === "object") {
    const signal = "signal" in item ? item.signal : item;
    return signal !== null && typeof signal === "object" && signal.isTerminal === true;
  }
  return false;
}

/** Whether `items` hold a terminal signal; stops at the first one. */
export function hasTerminalSignal(items, options = {}) {
  if (typeof items === "string" || items instanceof Uint8Array) {
    throw new TypeError(
      "a terminal check reads an iterable of lines or signals, not one line; split it first",
    );
  }
  const lenient = options.lenient === true;
  for (const item of items) {
    if (isTerminal(item, lenient)) return true;
  }
  return false;
}

/** The MissingTerminalSignal for a run whose `items` hold no terminal signal, else null. */
export function checkTerminalSignal(items, options) {
  if (hasTerminalSignal(items, options)) return null;
  return new MissingTerminalSignal(options.runId);
}
