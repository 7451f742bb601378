/**
 * Writing signals: the one canonical line for a kind and payload.
 *
 * `BERNSTEIN:<KIND>` then, when there is a payload, one space and the canonical
 * JSON of _json.js: the same bytes as the Python binding's format_signal.
 */
import { dumpCanonical, isPlainObject } from "./_json.js";
import { shown } from "./_shown.js";
import { SignalFormatError } from "./errors.js";
import { SIGNAL_KINDS, SIGNAL_PREFIX } from "./kinds.js";

const KINDS = new Set(SIGNAL_KINDS);

/**
 * The signal line, without a trailing newline; a null or absent payload writes none.
 * Throws SignalFormatError: code "unknown-kind", "payload-type" (not a plain object)
 * or "not-json" (a value JSON cannot carry on one line within the limits).
 */
export function formatSignal(kind, payload = null) {
  if (typeof kind !== "string" || !KINDS.has(kind)) {
    throw new SignalFormatError(`unknown signal kind ${shown(kind)}`, "unknown-kind");
  }
  if (payload === null || payload === undefined) return SIGNAL_PREFIX + kind;
  if (!isPlainObject(payload)) {
    throw new SignalFormatError(
      `a signal payload is a plain object, not ${shown(payload)}`,
      "payload-type",
    );
  }
  return `${SIGNAL_PREFIX}${kind} ${dumpCanonical(payload)}`;
}
