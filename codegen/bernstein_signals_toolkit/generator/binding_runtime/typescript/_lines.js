/** What every line reader shares: a line as text, and the strict reading of a prefixed line. */
import { loadObject } from "./_json.js";
import { KIND_TOKEN } from "./_kind_token.js";
import { LENIENT_WHITESPACE_CODES } from "./_whitespace.js";
import { SIGNAL_KINDS, SIGNAL_PREFIX, TERMINAL_SIGNAL_KINDS } from "./kinds.js";

export const KINDS = new Set(SIGNAL_KINDS);
const TERMINALS = new Set(TERMINAL_SIGNAL_KINDS);
export const PREFIX_LENGTH = SIGNAL_PREFIX.length;
export const LONGEST_KIND = Math.max(0, ...SIGNAL_KINDS.map((kind) => kind.length));
export const SPACES = new Set(LENIENT_WHITESPACE_CODES);
const SPACE_CLASS = LENIENT_WHITESPACE_CODES.map(
  (code) => `\\u${code.toString(16).padStart(4, "0")}`,
).join("");
export const LEADING_SPACE = new RegExp(`[${SPACE_CLASS}]*`, "y");
export const LENIENT_KIND = new RegExp(`[${SPACE_CLASS}]*([^${SPACE_CLASS}]+)[${SPACE_CLASS}]*`, "y");
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function newSignal(kind, payload, rawLine) {
  return { kind, payload, rawLine, isTerminal: TERMINALS.has(kind) };
}

/** A well-formed signal of a kind this vocabulary does not know: never terminal. */
export function unknownSignal(kind, payload, rawLine) {
  return { kind, payload, rawLine, isTerminal: false, unknownKind: true };
}

/** Whether `word` is the grammar's KIND token. */
export function isKindToken(word) {
  return KIND_TOKEN.test(word);
}

/** parsePrefixed that also reads a well-formed line of a kind it does not know. */
export function parsePrefixedAny(line) {
  const space = line.indexOf(" ", PREFIX_LENGTH);
  const word = line.slice(PREFIX_LENGTH, space < 0 ? line.length : space);
  if (!KIND_TOKEN.test(word)) return null;
  const payload = space < 0 ? {} : loadObject(line.slice(space + 1));
  if (payload === null) return null;
  return KINDS.has(word) ? newSignal(word, payload, line) : unknownSignal(word, payload, line);
}

/** A line without its terminator, known to start with the prefix. */
export function parsePrefixed(line) {
  let space = line.indexOf(" ", PREFIX_LENGTH);
  if (space > PREFIX_LENGTH + LONGEST_KIND) space = -1;
  if (space < 0) {
    if (line.length > PREFIX_LENGTH + LONGEST_KIND) return null;
    const kind = line.slice(PREFIX_LENGTH);
    return KINDS.has(kind) ? newSignal(kind, {}, line) : null;
  }
  const kind = line.slice(PREFIX_LENGTH, space);
  if (!KINDS.has(kind)) return null;
  const payload = loadObject(line.slice(space + 1));
  return payload === null ? null : newSignal(kind, payload, line);
}

/** The line as text, or null for bytes that are not UTF-8 and for what is no line. */
export function lineText(line) {
  if (typeof line === "string") return line;
  if (line instanceof Uint8Array) {
    try {
      return UTF8.decode(line);
    } catch {
      return null;
    }
  }
  return null;
}

