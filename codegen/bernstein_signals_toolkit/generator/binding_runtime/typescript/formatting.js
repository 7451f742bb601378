/**
 * Writing signals: the one canonical line for a kind and payload.
 *
 * `BERNSTEIN:<KIND>` then, when there is a payload, one space and the canonical
 * JSON of _json.js: the same bytes as the Python binding's format_signal.
 */
import { dumpCanonical, isPlainObject } from "./_json.js";
import { shown } from "./_shown.js";
import { SignalFormatError, SignalPayloadError } from "./errors.js";
import { SIGNAL_KINDS, SIGNAL_PREFIX } from "./kinds.js";
import { validatePayload } from "./validators.js";

const KINDS = new Set(SIGNAL_KINDS);

/**
 * The signal line, without a trailing newline; a null or absent payload writes none.
 * Throws SignalFormatError: code "unknown-kind", "payload-type" (not a plain object),
 * "payload-schema" (a SignalPayloadError: the payload breaks its kind's schema, checked
 * unless `validate` is false; no payload is checked as {}) or "not-json" (a value JSON
 * cannot carry on one line within the limits).
 */
export function formatSignal(kind, payload = null, options = {}) {
  if (typeof kind !== "string" || !KINDS.has(kind)) {
    throw new SignalFormatError(`unknown signal kind ${shown(kind)}`, "unknown-kind");
  }
  const absent = payload === null || payload === undefined;
  if (!absent && !isPlainObject(payload)) {
    throw new SignalFormatError(
      `a signal payload is a plain object, not ${shown(payload)}`,
      "payload-type",
    );
  }
  if (options?.validate !== false) {
    const errors = validatePayload(kind, absent ? {} : withoutUndefined(payload));
    if (errors.length > 0) throw new SignalPayloadError(kind, errors);
  }
  if (absent) return SIGNAL_PREFIX + kind;
  return `${SIGNAL_PREFIX}${kind} ${dumpCanonical(payload)}`;
}

/** The payload as it is written: a member whose value is undefined is absent. */
function withoutUndefined(payload) {
  const values = Object.values(payload);
  if (!values.includes(undefined)) return payload;
  const written = {};
  for (const key of Object.keys(payload)) {
    if (payload[key] !== undefined) {
      Object.defineProperty(written, key, { value: payload[key], enumerable: true, writable: true, configurable: true });
    }
  }
  return written;
}
