/**
 * Reading signals from stdout lines: never throws, whatever the line holds.
 *
 * Strict mode is the grammar plus a known kind and the documented limits of
 * _json.js. Lenient mode reads lines the way the seed project's parser did
 * (strip, split on whitespace as Python's str.split does), for adapters written
 * against it; the JSON rules stay strict in both. A line is a string or a
 * Uint8Array read as UTF-8; bytes that are not UTF-8, and anything else, are
 * plain output (null).
 */
import { loadObject } from "./_json.js";
import {
  KINDS,
  LEADING_SPACE,
  LENIENT_KIND,
  LONGEST_KIND,
  PREFIX_LENGTH,
  SPACES,
  isKindToken,
  lineText,
  newSignal,
  parsePrefixed,
  parsePrefixedAny,
  unknownSignal,
} from "./_lines.js";
import { SIGNAL_PREFIX } from "./kinds.js";

function lenient(line, unknown) {
  LEADING_SPACE.lastIndex = 0;
  LEADING_SPACE.test(line);
  const begin = LEADING_SPACE.lastIndex;
  if (!line.startsWith(SIGNAL_PREFIX, begin)) return null;
  LENIENT_KIND.lastIndex = begin + PREFIX_LENGTH;
  const found = LENIENT_KIND.exec(line);
  if (found === null) return null;
  const known = found[1].length <= LONGEST_KIND && KINDS.has(found[1]);
  if (!known && (!unknown || !isKindToken(found[1]))) return null;
  const make = known ? newSignal : unknownSignal;
  let end = line.length;
  while (end > begin && SPACES.has(line.charCodeAt(end - 1))) end -= 1;
  const stripped = line.slice(begin, end);
  const start = LENIENT_KIND.lastIndex - begin;
  if (start >= stripped.length) return make(found[1], {}, stripped);
  const payload = loadObject(stripped.slice(start));
  return payload === null ? null : make(found[1], payload, stripped);
}

/**
 * The signal on `line`, or null when it is plain output. One trailing "\n" or
 * "\r\n" is tolerated. A payload that fails its schema still parses. With
 * `unknownKinds`, a well-formed line of a kind the vocabulary does not know is an
 * unknown-kind signal (`unknownKind: true`, never terminal) instead of plain output.
 */
export function parseSignal(line, options = {}) {
  try {
    let text = lineText(line);
    if (text === null) return null;
    const given = options !== null && typeof options === "object" ? options : {};
    const unknown = given.unknownKinds === true;
    if (given.lenient === true) return lenient(text, unknown);
    if (!text.startsWith(SIGNAL_PREFIX)) return null;
    if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
    return unknown ? parsePrefixedAny(text) : parsePrefixed(text);
  } catch {
    return null; // a getter on options, or a stack too small: still plain output
  }
}

/** The signals among `lines` (strings or Uint8Arrays), in order. */
export function* iterSignals(lines, options = {}) {
  if (typeof lines === "string" || lines instanceof Uint8Array) {
    throw new TypeError(
      "iterSignals reads an iterable of lines, not one line; split it first or use parseSignal",
    );
  }
  for (const line of lines) {
    const signal = parseSignal(line, options);
    if (signal !== null) yield signal;
  }
}
